import { describe, expect, it } from "vitest";
import { confirmAge, isAgeVerified, requireAgeVerified, safeReturnTo } from "./age-gate.server.ts";

function requestWith(cookie: string | null, url = "http://shop.test/adult-movies?page=2") {
  return new Request(url, { headers: cookie ? { Cookie: cookie } : {} });
}

describe("age gate", () => {
  it("sends unconfirmed visitors to the check, with the way back", async () => {
    const thrown = await requireAgeVerified(requestWith(null)).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe(
      "/age-check?returnTo=%2Fadult-movies%3Fpage%3D2",
    );
  });

  it("remembers a confirmation in a cookie, Secure only over HTTPS", async () => {
    const response = await confirmAge(new Request("http://shop.test/age-check"), "/adult-movies/3");
    expect(response.headers.get("Location")).toBe("/adult-movies/3");
    const setCookie = response.headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);
    const cookie = setCookie.split(";")[0]!;
    expect(await isAgeVerified(requestWith(cookie))).toBe(true);
    await expect(requireAgeVerified(requestWith(cookie))).resolves.toBeUndefined();

    const overHttps = await confirmAge(new Request("https://shop.test/age-check"), "/adult-movies");
    expect(overHttps.headers.get("Set-Cookie")).toMatch(/Secure/);
  });

  it("ignores a malformed cookie and never sends people to other sites", async () => {
    expect(await isAgeVerified(requestWith("age_verified=yes"))).toBe(false);
    expect(safeReturnTo("//evil.example/x")).toBe("/adult-movies");
    expect(safeReturnTo("https://evil.example")).toBe("/adult-movies");
    expect(safeReturnTo("/\\evil.example")).toBe("/adult-movies");
    expect(safeReturnTo("/adult-movies/5?page=2")).toBe("/adult-movies/5?page=2");
  });
});
