import { z } from "zod";

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} can be at most ${max} characters.`)
    .transform((value) => value.replace(/\s+/g, " ") || null);

/** The ship form of an order's page: both fields optional (a parcel handed over at the counter). */
export const shipmentSchema = z.object({
  carrier: optionalText(40, "Carrier"),
  trackingNumber: optionalText(40, "Tracking number").refine(
    (value) => value === null || /^[A-Za-z0-9][A-Za-z0-9 -]*$/.test(value),
    "Use letters, digits, spaces and dashes only.",
  ),
});

export type ShipmentInput = z.infer<typeof shipmentSchema>;
