import { describe, expect, it } from "vitest";
import { displayName } from "./display-name.ts";

describe("display name", () => {
  it("uses first and last name, trimmed, when either is there", () => {
    expect(displayName({ firstName: "Ada", lastName: "Lovelace" }, "ada@x.test")).toBe(
      "Ada Lovelace",
    );
    expect(displayName({ firstName: "  Ada ", lastName: "" }, "ada@x.test")).toBe("Ada");
    expect(displayName({ firstName: null, lastName: "Lovelace" }, "ada@x.test")).toBe("Lovelace");
  });

  it("falls back to the e-mail before the at-sign, then to Guest", () => {
    expect(displayName({ firstName: "  ", lastName: null }, "reel.fan@example.test")).toBe(
      "reel.fan",
    );
    expect(displayName(null, "someone@example.test")).toBe("someone");
    expect(displayName(null, "")).toBe("Guest");
    expect(displayName(undefined, null)).toBe("Guest");
    expect(displayName({}, "@example.test")).toBe("Guest");
  });
});
