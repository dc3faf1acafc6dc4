export type ShippingOption = {
  id: "standard" | "express";
  name: string;
  priceCents: number;
  estimatedDays: string;
  description: string;
};

/** Spec §9: standard $5.99 (3–5 days) is the default; express $12.99 (1–2 days). */
export const SHIPPING_OPTIONS: readonly ShippingOption[] = [
  {
    id: "standard",
    name: "Standard",
    priceCents: 599,
    estimatedDays: "3–5 days",
    description: "Ground delivery, tracked.",
  },
  {
    id: "express",
    name: "Express",
    priceCents: 1299,
    estimatedDays: "1–2 days",
    description: "Shipped the next business day.",
  },
];

export const DEFAULT_SHIPPING_OPTION = "standard";

export function shippingOption(id: string): ShippingOption {
  return SHIPPING_OPTIONS.find((option) => option.id === id) ?? SHIPPING_OPTIONS[0]!;
}

/**
 * What shipping costs: standard is free once the subtotal reaches the threshold (DESIGN §3.5,
 * the rule the original shop described but never charged by); express always costs its price.
 */
export function shippingCents(optionId: string, subtotalCents: number, freeThresholdCents: number) {
  const option = shippingOption(optionId);
  if (option.id === "standard" && subtotalCents >= freeThresholdCents) return 0;
  return option.priceCents;
}
