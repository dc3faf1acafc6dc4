export type ShippingOption = {
  id: "standard" | "express" | "pickup";
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
  // Not in the spec: collected at the counter with the code e-mailed when the order is ready.
  {
    id: "pickup",
    name: "Pick up at the store",
    priceCents: 0,
    estimatedDays: "when we e-mail you",
    description: "Collect it at the counter with the code we send you.",
  },
];

export type ShippingMethod = ShippingOption["id"];
export const SHIPPING_METHODS = [
  "standard",
  "express",
  "pickup",
] as const satisfies ShippingMethod[];

/** The choice as the cart's select and the review show it. */
export function shippingChoiceLabel(
  option: ShippingOption,
  formatPrice: (cents: number) => string,
) {
  if (option.id === "pickup") return "Pick up at the store (free)";
  return `${option.name} (${option.estimatedDays}) – ${formatPrice(option.priceCents)}`;
}

/** How an order travels, as an e-mail, a payment page or an order's page says it. */
export function deliveryLabel(method: string): string {
  const option = shippingOption(method);
  return option.id === "pickup" ? option.name : `${option.name} shipping`;
}

export const DEFAULT_SHIPPING_OPTION = "standard";

export function isPickup(method: string): boolean {
  return method === "pickup";
}

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
