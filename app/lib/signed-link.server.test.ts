import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSignedLink, signLink } from "./signed-link.server.ts";

const SECRET = "a-secret-of-thirty-two-characters!!";

describe("signed links", () => {
  it("sign the purpose and the parts joined by colons, as the links e-mailed before did", () => {
    // Tokens worked out with the formula the four links used before they shared this module.
    expect(signLink("order-cancel", [1042], SECRET)).toBe(
      "niA4UOfBH-5pX-ktBqyBrsgyQDvAZ3PjXSBtXjg7ODo",
    );
    expect(signLink("repair-ticket-status", [1042], SECRET)).toBe(
      "Z15SJ-1Mng5RkIbH_rixTvYgKgVO3Zr8sUvapvJZxkE",
    );
    expect(signLink("stock-alert", [77], SECRET)).toBe(
      "MyjIL3PBj4IlXBkjfA_juEs9tBqDiJEAO7oU63PNQno",
    );
    expect(signLink("cancel-repair", [15, "uid-abc@reelandrepair"], SECRET)).toBe(
      "HfYNQi44BQ95_sf-bukYin0xx1GEF5VVKXF3v0s7Vv4",
    );
    expect(
      isSignedLink("order-cancel", [1042], "niA4UOfBH-5pX-ktBqyBrsgyQDvAZ3PjXSBtXjg7ODo", SECRET),
    ).toBe(true);
  });

  it("refuse another purpose, other parts, another secret, a cut or empty token", () => {
    const token = signLink("stock-alert", [77], SECRET);
    expect(isSignedLink("stock-alert", [77], token, SECRET)).toBe(true);
    expect(isSignedLink("order-cancel", [77], token, SECRET)).toBe(false);
    expect(isSignedLink("stock-alert", [78], token, SECRET)).toBe(false);
    expect(isSignedLink("stock-alert", [77], token, `${SECRET}x`)).toBe(false);
    expect(isSignedLink("stock-alert", [77], token.slice(0, -2), SECRET)).toBe(false);
    expect(isSignedLink("stock-alert", [77], "", SECRET)).toBe(false);
    // Parts are kept apart by the colon: 7 and 7 are not 77.
    expect(isSignedLink("stock-alert", [7, 7], token, SECRET)).toBe(false);
  });

  it("sign an expiry into the token and refuse it from that second on", () => {
    const expiresAt = new Date("2026-11-27T18:00:00Z");
    const token = signLink("stock-alert", [77], SECRET, { expiresAt });
    const seconds = expiresAt.getTime() / 1000;
    const expected = createHmac("sha256", SECRET)
      .update(`stock-alert:77:${seconds}`)
      .digest("base64url");
    expect(token).toBe(`${seconds}.${expected}`);

    const before = new Date(expiresAt.getTime() - 1000);
    expect(isSignedLink("stock-alert", [77], token, SECRET, { now: before })).toBe(true);
    expect(isSignedLink("stock-alert", [77], token, SECRET, { now: expiresAt })).toBe(false);
    // A later expiry written over the signed one breaks the signature.
    const stretched = `${seconds + 86_400}.${expected}`;
    expect(isSignedLink("stock-alert", [77], stretched, SECRET, { now: before })).toBe(false);
    // A link that must expire is never accepted without an expiry, nor the other way round.
    const forever = signLink("stock-alert", [77], SECRET);
    expect(isSignedLink("stock-alert", [77], forever, SECRET, { now: before })).toBe(false);
    expect(isSignedLink("stock-alert", [77], token, SECRET)).toBe(false);
  });
});
