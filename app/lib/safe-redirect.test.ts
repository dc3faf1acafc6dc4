import { describe, expect, it } from "vitest";
import { safeLocalPath } from "./safe-redirect.ts";

describe("safeLocalPath", () => {
  it("keeps our own paths with their query and fragment", () => {
    expect(safeLocalPath("/cart")).toBe("/cart");
    expect(safeLocalPath("/movies?page=2&sort=az#top")).toBe("/movies?page=2&sort=az#top");
    expect(safeLocalPath("/search?query=caf%C3%A9")).toBe("/search?query=caf%C3%A9");
  });

  it.each([
    "//evil.example",
    "/\t/evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/ /evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "/.//evil.example",
    "/%2e//evil.example",
    "evil.example",
    "",
  ])("refuses %j", (value) => {
    const result = safeLocalPath(value, "/fallback");
    // Either refused, or turned into a harmless path on our own site.
    if (result !== "/fallback") {
      expect(new URL(result, "https://shop.example").origin).toBe("https://shop.example");
      expect(result).not.toMatch(/^\/\//);
    }
    expect(result).not.toMatch(/[\t\r\n\\]/);
  });

  it("gives the fallback for things that are not strings or are too long", () => {
    expect(safeLocalPath(null, "/x")).toBe("/x");
    expect(safeLocalPath(undefined)).toBe("/");
    expect(safeLocalPath(`/${"a".repeat(3000)}`)).toBe("/");
  });

  it("never lets a line break reach a header", () => {
    const result = safeLocalPath("/movies\r\nSet-Cookie: a=b");
    expect(result).not.toMatch(/[\r\n]/);
    expect(() => new Headers({ Location: result })).not.toThrow();
  });

  it("refuses chosen prefixes", () => {
    expect(safeLocalPath("/api/auth/sign-out", "/", { refusePrefixes: ["/api/"] })).toBe("/");
  });
});
