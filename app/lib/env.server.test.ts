import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server.ts";

describe("TRUST_PROXY", () => {
  it("trusts no proxy by default", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "none" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
  });

  it("takes a hop count or a list of addresses, ranges and names", () => {
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toEqual(["loopback"]);
    expect(parseEnv({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.10,fd00::/8" }).TRUST_PROXY).toEqual([
      "10.0.0.0/8",
      "192.0.2.10",
      "fd00::/8",
    ]);
  });

  it("refuses anything else, naming it", () => {
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY.*not true/);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/33" })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ TRUST_PROXY: "proxy.internal" })).toThrow(/proxy\.internal/);
  });
});
