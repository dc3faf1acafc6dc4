import { describe, expect, it } from "vitest";
import { parseEnv, shopContact } from "./env.server.ts";

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

describe("the shop's contact details", () => {
  it("has sensible defaults and no social links unless configured", () => {
    const contact = shopContact(parseEnv({}));
    expect(contact.phone).toBe("(817) 555-0142");
    expect(contact.email).toBe("hello@reelandrepair.example");
    expect(contact.hours).toMatch(/Mon/);
    expect(contact.mapUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/.*Arlington/);
    expect(contact.social).toEqual([]);
  });

  it("takes the shop's own values and lists only the profiles that are set", () => {
    const contact = shopContact(
      parseEnv({
        SHOP_PHONE: "+1 817 555 0199",
        SHOP_HOURS: "Every day 9:00–21:00",
        SHOP_MAP_URL: "https://maps.example/reel",
        SHOP_INSTAGRAM_URL: "https://www.instagram.com/reelandrepair",
        SHOP_LINKEDIN_URL: "https://www.linkedin.com/company/reelandrepair",
      }),
    );
    expect(contact).toMatchObject({
      phone: "+1 817 555 0199",
      hours: "Every day 9:00–21:00",
      mapUrl: "https://maps.example/reel",
    });
    expect(contact.social).toEqual([
      { name: "Instagram", href: "https://www.instagram.com/reelandrepair" },
      { name: "LinkedIn", href: "https://www.linkedin.com/company/reelandrepair" },
    ]);
  });

  it("refuses a phone that is not one and profiles that are not https addresses", () => {
    expect(() => parseEnv({ SHOP_PHONE: "call us" })).toThrow(/SHOP_PHONE/);
    expect(() => parseEnv({ SHOP_INSTAGRAM_URL: "instagram" })).toThrow(/SHOP_INSTAGRAM_URL/);
    expect(() => parseEnv({ SHOP_FACEBOOK_URL: "http://facebook.com/x" })).toThrow(
      /SHOP_FACEBOOK_URL/,
    );
    expect(() => parseEnv({ SHOP_MAP_URL: "javascript:alert(1)" })).toThrow(/SHOP_MAP_URL/);
  });
});
