import { z } from "zod";
import { ALERT_KINDS } from "./status.ts";

/**
 * What the signup posts: the kind, the title's serial number or the Coming Soon entry's id, and
 * a visitor's address (a signed-in customer's is their account's).
 */
export const alertRequestSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  id: z.coerce.number().int().positive().max(2_147_483_647),
  email: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.email("Invalid email address").optional()),
});
