import { checkAdultBuyer } from "#app/domain/orders/adult-buyer.ts";
import { refuse, type Refusal } from "#app/lib/reply.server.ts";

/**
 * The counter's ID check (decision 023, point 2): adult titles go over the counter only to
 * someone 18 or older on the shop's calendar, by the birth date the clerk typed from their ID.
 * A sale and a pickup ask the same; `handing` says which in the refusal. Null: it passes.
 */
export function idCheckRefusal(
  birthDate: string | null,
  now: Date,
  timeZone: string,
  handing: "sold" | "handed over" = "sold",
): Refusal<"invalid"> | null {
  const check = checkAdultBuyer(birthDate, now, timeZone);
  if (check.ok) return null;
  return check.reason === "under-age"
    ? refuse("invalid", `The customer is under 18: adult titles cannot be ${handing}.`, "idCheck")
    : refuse(
        "invalid",
        "Adult titles need an ID check: type the birth date on the customer's ID.",
        "idCheck",
      );
}
