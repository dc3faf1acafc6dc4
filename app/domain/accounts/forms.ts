import { isBirthDate } from "#app/lib/calendar-date.ts";
import { z } from "zod";
import { NAME_MAX_LENGTH, PLAIN_NAME } from "#app/lib/person-name.ts";

/** Form schemas shared by the pages (field messages) and their actions (the authority). */
const email = z
  .string()
  .trim()
  .min(1, "Please enter your email.")
  .max(254)
  .pipe(z.email("Invalid email address"));

function personName(missing: string) {
  return z
    .string()
    .trim()
    .min(1, missing)
    .max(NAME_MAX_LENGTH, `Please keep it under ${NAME_MAX_LENGTH + 1} characters.`)
    .regex(PLAIN_NAME, "Please use letters, spaces, apostrophes, hyphens or dots only.");
}

const newPassword = z
  .string()
  .min(8, "Password must be at least 8 characters")
  .max(128, "Password must be at most 128 characters");

export const registerSchema = z
  .object({
    firstName: personName("Please enter your first name."),
    lastName: personName("Please enter your last name."),
    dateOfBirth: z
      .string()
      .min(1, "Please enter your date of birth.")
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Please enter your date of birth.")
      .refine((value) => isBirthDate(value), "Please enter a real date of birth."),
    email,
    password: newPassword,
    confirmPassword: z.string(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match.",
  });

export const loginSchema = z.object({
  email,
  password: z.string().min(1, "Please enter your password."),
});

export const resetRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Please enter your email to reset your password.")
    .pipe(z.email("Invalid email address")),
});

export const updatePasswordSchema = z
  .object({
    token: z.string().min(1),
    password: newPassword,
    confirmPassword: z.string().min(1, "Please confirm your password"),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match",
  });

export type FieldErrors = Record<string, string | undefined>;

/** The first message per field, ready to show next to it. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}

export const profileSchema = z.object({
  firstName: personName("Please enter your first name."),
  lastName: personName("Please enter your last name."),
  dateOfBirth: z
    .string()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, "Please enter a real date of birth.")
    .refine((value) => !value || isBirthDate(value), "Please enter a real date of birth."),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Please enter your current password."),
    password: newPassword,
    confirmPassword: z.string().min(1, "Please confirm your password"),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match",
  });

export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app."),
});

/** One of the customer's own stock alerts, by its id (My Account's Unsubscribe). */
export const ownAlertSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "There is no such alert.")
    .transform(Number),
});
