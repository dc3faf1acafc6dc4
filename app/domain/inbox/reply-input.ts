import { z } from "zod";

/** The reply form of an inbox item (decision 002: one schema, the server is the authority). */
export const replySchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, "Please write a reply.")
    .max(5000, "Please keep your reply under 5,000 characters."),
  markHandled: z.boolean(),
});

export type ReplyValues = { body: string; markHandled: boolean };
