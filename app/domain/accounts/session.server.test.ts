import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { confirmedLoginPath } from "./accounts.server.ts";
import { authSecret } from "./auth-secret.server.ts";
import { hasSessionCookie, loginRedirect, safeRedirectTo } from "./session.server.ts";
import { staffOf } from "./staff.ts";

const withCookie = (cookie: string) =>
  new Request("http://shop.test/account", { headers: { cookie } });

describe("the session helpers", () => {
  it("see a session only by the shop's session cookie, plain or __Secure-", () => {
    expect(hasSessionCookie(withCookie("shop.session_token=abc"))).toBe(true);
    expect(hasSessionCookie(withCookie("theme=dark; __Secure-shop.session_token=abc"))).toBe(true);
    expect(hasSessionCookie(withCookie("theme=dark"))).toBe(false);
    // A cookie whose name merely ends the same is someone else's.
    expect(hasSessionCookie(withCookie("othershop.session_token=abc"))).toBe(false);
    expect(hasSessionCookie(new Request("http://shop.test/"))).toBe(false);
  });

  it("send a visitor to the login page with the way back, query and all", () => {
    const response = loginRedirect(new Request("http://shop.test/orders/12?tab=returns&x=a b"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/orders/12?tab=returns&x=a%20b")}`,
    );
  });

  it("return only to a page of the shop, never to the auth API or another site", () => {
    expect(safeRedirectTo("/orders?page=2")).toBe("/orders?page=2");
    expect(safeRedirectTo("/api/auth/sign-out")).toBe("/");
    expect(safeRedirectTo("//evil.example/")).toBe("/");
    expect(safeRedirectTo("https://evil.example/")).toBe("/");
    expect(safeRedirectTo("/\\evil.example")).toBe("/");
    expect(safeRedirectTo(undefined)).toBe("/");
  });

  it("bring a confirmation link back to the login page with the address", () => {
    expect(confirmedLoginPath("ada+shop@example.com")).toBe(
      "/login?verified=1&email=ada%2Bshop%40example.com",
    );
  });

  it("name the staff member acting by the name the pages show", () => {
    expect(staffOf({ id: "u-1", displayName: "Rita Returns" })).toEqual({
      id: "u-1",
      name: "Rita Returns",
    });
  });
});

describe("authSecret", () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "auth-secret-"));

  it("is AUTH_SECRET when it is set, and required in production", () => {
    expect(
      authSecret({ AUTH_SECRET: "configured", APP_ENV: "production", DATA_DIR: "/nowhere" }),
    ).toBe("configured");
    expect(() =>
      authSecret({ AUTH_SECRET: undefined, APP_ENV: "production", DATA_DIR: dataDir() }),
    ).toThrow("AUTH_SECRET is required in production.");
  });

  it("is made once outside production and kept in DATA_DIR, readable by the shop alone", () => {
    const dir = path.join(dataDir(), "not-there-yet");
    const env = { AUTH_SECRET: undefined, APP_ENV: "local", DATA_DIR: dir } as const;
    const first = authSecret(env);
    expect(first).toMatch(/^[\w-]{64}$/);
    expect(authSecret(env)).toBe(first);
    const file = path.join(dir, "auth-secret");
    expect(fs.readFileSync(file, "utf8")).toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
