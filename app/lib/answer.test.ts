import { describe, expect, it } from "vitest";
import { errorsOf } from "./answer.ts";

describe("errorsOf", () => {
  it("gives a refusal's field messages, and none before a form is sent or once it went through", () => {
    expect(errorsOf(undefined)).toEqual({});
    expect(errorsOf(null)).toEqual({});
    expect(errorsOf({ ok: false, errors: { email: "Please enter your e-mail." } })).toEqual({
      email: "Please enter your e-mail.",
    });
    expect(errorsOf({ ok: false })).toEqual({});
    expect(errorsOf({ ok: true, errors: { email: "left from before" } })).toEqual({});
    // An answer without `ok` (a form's own shape) shows what it carries.
    expect(errorsOf({ errors: { name: "Required." } })).toEqual({ name: "Required." });
  });
});
