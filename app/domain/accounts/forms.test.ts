import { describe, expect, it } from "vitest";
import {
  changePasswordSchema,
  fieldErrors,
  loginSchema,
  ownAlertSchema,
  profileSchema,
  registerSchema,
  resetRequestSchema,
  totpCodeSchema,
} from "./forms.ts";

const registration = {
  firstName: " Ada ",
  lastName: "Lovelace",
  dateOfBirth: "1985-12-10",
  email: " Ada@Example.com ",
  password: "violet tram ticket",
  confirmPassword: "violet tram ticket",
};

/** The first message per field of what a schema refuses. */
function errorsOf(schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }) {
  return (value: unknown) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return {};
    return fieldErrors(parsed.error as Parameters<typeof fieldErrors>[0]);
  };
}

describe("registerSchema", () => {
  it("takes a registration, trimmed", () => {
    expect(registerSchema.parse(registration)).toMatchObject({
      firstName: "Ada",
      email: "Ada@Example.com",
    });
  });

  it("says beside each field what is wrong, one message a field", () => {
    expect(
      errorsOf(registerSchema)({
        firstName: "",
        lastName: "Love<lace>",
        dateOfBirth: "",
        email: "ada@",
        password: "short",
        confirmPassword: "short",
      }),
    ).toEqual({
      firstName: "Please enter your first name.",
      lastName: "Please use letters, spaces, apostrophes, hyphens or dots only.",
      dateOfBirth: "Please enter your date of birth.",
      email: "Invalid email address",
      password: "Password must be at least 8 characters",
    });
  });

  it("refuses passwords that differ, a password over 128 characters and a name over 50", () => {
    expect(errorsOf(registerSchema)({ ...registration, confirmPassword: "violet tram" })).toEqual({
      confirmPassword: "Passwords do not match.",
    });
    const long = "p".repeat(129);
    expect(
      errorsOf(registerSchema)({ ...registration, password: long, confirmPassword: long }),
    ).toEqual({ password: "Password must be at most 128 characters" });
    expect(errorsOf(registerSchema)({ ...registration, lastName: "L".repeat(51) })).toEqual({
      lastName: "Please keep it under 51 characters.",
    });
  });

  it("takes only a real date of birth, in the past, from 1900", () => {
    const dateError = (dateOfBirth: string) =>
      errorsOf(registerSchema)({ ...registration, dateOfBirth }).dateOfBirth;
    expect(dateError("1900-01-01")).toBeUndefined();
    expect(dateError("1899-12-31")).toBe("Please enter a real date of birth.");
    expect(dateError("9999-01-01")).toBe("Please enter a real date of birth.");
    expect(dateError("10/12/1985")).toBe("Please enter your date of birth.");
    // The right shape, but no day of the calendar (the date column would refuse it).
    expect(dateError("2001-02-30")).toBe("Please enter a real date of birth.");
    expect(dateError("2000-02-29")).toBeUndefined();
  });
});

describe("the other account forms", () => {
  it("asks for the address and password at login, and for the address to reset", () => {
    expect(errorsOf(loginSchema)({ email: " ", password: "" })).toEqual({
      email: "Please enter your email.",
      password: "Please enter your password.",
    });
    expect(errorsOf(resetRequestSchema)({ email: "" })).toEqual({
      email: "Please enter your email to reset your password.",
    });
  });

  it("lets the profile's date of birth stay empty, but not be wrong", () => {
    const profile = { firstName: "Ada", lastName: "Lovelace" };
    expect(profileSchema.safeParse({ ...profile, dateOfBirth: "" }).success).toBe(true);
    for (const dateOfBirth of ["1985-13-01", "1985-04-31"]) {
      expect(errorsOf(profileSchema)({ ...profile, dateOfBirth })).toEqual({
        dateOfBirth: "Please enter a real date of birth.",
      });
    }
  });

  it("asks for the current password and a matching new one", () => {
    expect(
      errorsOf(changePasswordSchema)({
        currentPassword: "",
        password: "violet tram ticket",
        confirmPassword: "violet tram",
      }),
    ).toEqual({
      currentPassword: "Please enter your current password.",
      confirmPassword: "Passwords do not match",
    });
  });

  it("takes a six-digit code, spaces around it aside", () => {
    expect(totpCodeSchema.parse({ code: " 012345 " })).toEqual({ code: "012345" });
    for (const code of ["12345", "1234567", "12 345", "abcdef"]) {
      expect(errorsOf(totpCodeSchema)({ code })).toEqual({
        code: "Enter the 6-digit code from your authenticator app.",
      });
    }
  });

  it("reads an alert's id as a number, and nothing else as one", () => {
    expect(ownAlertSchema.parse({ id: "42" })).toEqual({ id: 42 });
    for (const id of ["", "-1", "4.2", "1234567890", "42; drop"]) {
      expect(errorsOf(ownAlertSchema)({ id })).toEqual({ id: "There is no such alert." });
    }
  });
});
