import { describe, expect, it } from "vitest";
import { authBodyProblem } from "./auth-input.ts";
import { isPasswordProblem, problemMessage, type AuthResult } from "./auth-call.server.ts";
import { weakPasswordReason } from "./common-passwords.ts";

describe("weakPasswordReason", () => {
  it("refuses the breach lists' favourites whatever their capitals, and the shop's own name", () => {
    for (const password of ["password1", "PASSWORD1", "Qwerty123", "ReelAndRepair", "hunter2"]) {
      expect(weakPasswordReason(password)).toBe(
        "This password is one of the most common ones. Choose another.",
      );
    }
  });

  it("refuses one character repeated, however long", () => {
    expect(weakPasswordReason("zzzzzzzzzzzzzzzz")).toBe(
      "A password of one repeated character is too easy to guess.",
    );
    // Two characters are not one repeated.
    expect(weakPasswordReason("zzzzzzzzzzzzzzzy")).toBeUndefined();
  });

  it("refuses the e-mail address's name inside it, from four letters on", () => {
    const reason = "Your password must not contain your e-mail address.";
    expect(weakPasswordReason("my-Margaret-2026", { email: "margaret@example.com" })).toBe(reason);
    expect(weakPasswordReason("MARGARET!long", { email: "Margaret@example.com" })).toBe(reason);
    // A name of three letters is in too many good passwords to refuse them.
    expect(weakPasswordReason("ann-of-green-gables", { email: "ann@example.com" })).toBeUndefined();
  });

  it("takes a long uncommon password", () => {
    expect(weakPasswordReason("violet tram ticket 1977", { email: "ada@example.com" })).toBe(
      undefined,
    );
  });
});

describe("authBodyProblem", () => {
  it("takes an ordinary sign-up body, and what is no object or holds no text", () => {
    expect(
      authBodyProblem({ name: "Mary-Jo O'Neil Jr.", email: "mj@example.com", password: "x" }),
    ).toBeNull();
    expect(authBodyProblem(undefined)).toBeNull();
    expect(authBodyProblem("text")).toBeNull();
    expect(authBodyProblem({ rememberMe: true, count: 3 })).toBeNull();
  });

  it("refuses control characters in any field, by the field's name", () => {
    expect(authBodyProblem({ email: "a\u0000@example.com" })).toBe(
      "email contains characters that are not allowed.",
    );
    expect(authBodyProblem({ callbackURL: "/login\u001b[2J" })).toBe(
      "callbackURL contains characters that are not allowed.",
    );
  });

  it("refuses any text over 2,048 characters", () => {
    expect(authBodyProblem({ token: "a".repeat(2048) })).toBeNull();
    expect(authBodyProblem({ token: "a".repeat(2049) })).toBe("token is too long.");
  });

  it("keeps a person's name short and plain", () => {
    expect(authBodyProblem({ name: "<script>alert(1)</script> Smith" })).toBe(
      "Name may contain letters, spaces, apostrophes, hyphens and dots only.",
    );
    expect(authBodyProblem({ name: `${"A".repeat(60)} ${"B".repeat(60)}` })).toMatch(
      /^Name must be at most \d+ characters\.$/,
    );
  });
});

describe("the answers of the auth library", () => {
  const answer = (status: number, body: { message?: string; code?: string }): AuthResult<unknown> =>
    ({ ok: status < 400, status, body, cookies: new Headers() }) as AuthResult<unknown>;

  it("tells a password problem from the others by its code", () => {
    expect(isPasswordProblem(answer(400, { code: "PASSWORD_TOO_SHORT" }))).toBe(true);
    expect(isPasswordProblem(answer(400, { code: "WEAK_PASSWORD" }))).toBe(true);
    expect(isPasswordProblem(answer(400, { code: "USER_ALREADY_EXISTS" }))).toBe(false);
    expect(isPasswordProblem(answer(400, {}))).toBe(false);
  });

  it("says too many attempts on a 429, the library's message otherwise, or the fallback", () => {
    expect(problemMessage(answer(429, { message: "Too many requests" }), "Failed")).toBe(
      "Too many attempts. Please wait a minute and try again.",
    );
    expect(problemMessage(answer(401, { message: "Invalid email or password" }), "Failed")).toBe(
      "Invalid email or password",
    );
    expect(problemMessage(answer(500, { message: "" }), "Could not sign in.")).toBe(
      "Could not sign in.",
    );
  });
});
