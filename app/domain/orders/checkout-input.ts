import { z } from "zod";
import { usPhone } from "#app/lib/contact-fields.ts";
import { PRODUCT_TYPES, type ProductType } from "#app/lib/catalog.ts";
import { SHIPPING_METHODS, type ShippingMethod } from "#app/lib/shipping.ts";
import { SHOP } from "#app/lib/site.ts";
import { isUsStateCode, US_STATE_NAMES } from "#app/lib/us-states.ts";
import { stateOfZip } from "#app/lib/zip-states.ts";

export const MAX_ORDER_LINES = 50;
export const MAX_LINE_QUANTITY = 99;

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long (at most ${max} characters).`);

/**
 * The seven shipping fields of the checkout form (spec §5: all required). Sales tax follows the
 * state, so the state must be where the ZIP code is: a parcel to Arlington, TX cannot be taxed
 * as Delaware's.
 */
const shippingFields = z.object({
  name: text("Name", 200),
  address: text("Address", 300),
  city: text("City", 100),
  // Kept as the postal code: the tax rate is chosen by it, so "Texas" must not slip through.
  state: z.string().trim().toUpperCase().refine(isUsStateCode, "Choose a state."),
  postalCode: z
    .string()
    .trim()
    .regex(/^\d{5}(-?\d{4})?$/, "Enter a 5-digit ZIP code, or ZIP+4 (12345-6789)."),
  phone: usPhone(),
  email: z
    .string()
    .trim()
    .max(254, "The e-mail address is too long.")
    .pipe(z.email("Enter a valid e-mail address.")),
});

export const shippingAddressSchema = shippingFields.superRefine((address, context) => {
  // A state or ZIP code that is wrong on its own has its own message already.
  if (!isUsStateCode(address.state) || !/^\d{5}(-?\d{4})?$/.test(address.postalCode)) return;
  const zipState = stateOfZip(address.postalCode);
  if (zipState === address.state) return;
  context.addIssue({
    code: "custom",
    path: ["postalCode"],
    message: zipState
      ? `ZIP code ${address.postalCode} is not in ${US_STATE_NAMES[address.state]}.`
      : "This ZIP code does not exist. Please check it.",
  });
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/**
 * A pickup order goes nowhere: the shop's own address stands in as its destination, so it is
 * taxed as a sale in the store's state, and the customer types only who collects it.
 */
export const PICKUP_ADDRESS = {
  address: SHOP.street,
  city: SHOP.city,
  state: SHOP.region,
  postalCode: SHOP.postalCode,
} as const;

/** The fields a pickup order asks for: the name, and how the shop and the provider reach them. */
export const PICKUP_FIELDS = [
  "name",
  "phone",
  "email",
] as const satisfies (keyof ShippingAddress)[];

export const pickupDetailsSchema = shippingFields
  .pick({ name: true, phone: true, email: true })
  .transform((contact): ShippingAddress => ({ ...contact, ...PICKUP_ADDRESS }));

/** The checkout form's details for this delivery choice: a whole address, or who collects. */
export function checkoutDetailsSchema(method: ShippingMethod) {
  return method === "pickup" ? pickupDetailsSchema : shippingAddressSchema;
}

export const orderLineSchema = z.object({
  productType: z.enum(PRODUCT_TYPES),
  serialNo: z.int().min(1).max(2_147_483_647),
  quantity: z
    .int()
    .min(1, "Quantities start at 1.")
    .max(MAX_LINE_QUANTITY, `At most ${MAX_LINE_QUANTITY} of one title per order.`),
});
export type OrderLineInput = z.infer<typeof orderLineSchema>;

/**
 * Everything placing an order takes. There is no price anywhere: prices, shipping and tax are
 * the server's. The checkout key is made once per checkout attempt (e.g. a random UUID in the
 * review form), so a double click or a replayed form finds the order it already made.
 */
export const placeOrderInputSchema = z
  .object({
    customerId: z.string().min(1),
    checkoutKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,100}$/, "The checkout key must be 16–100 letters, digits, - or _."),
    shippingMethod: z.enum(SHIPPING_METHODS),
    shipping: shippingAddressSchema,
    lines: z
      .array(orderLineSchema)
      .min(1, "The cart is empty.")
      .max(MAX_ORDER_LINES, `At most ${MAX_ORDER_LINES} different titles per order.`),
  })
  // The server decides where a pickup order "goes", whatever address came with it.
  .transform((input) =>
    input.shippingMethod === "pickup"
      ? { ...input, shipping: { ...input.shipping, ...PICKUP_ADDRESS } }
      : input,
  );
export type PlaceOrderInput = z.input<typeof placeOrderInputSchema>;
export type ValidPlaceOrderInput = z.output<typeof placeOrderInputSchema>;

export type OrderLine = { productType: ProductType; serialNo: number; quantity: number };

/** One product of either catalogue, as a map key: "regular:12", "adult:7". */
export const keyOf = (ref: { productType: ProductType; serialNo: number }) =>
  `${ref.productType}:${ref.serialNo}`;

/**
 * Lines for the same product become one (kind + serial number, as the cart merges them), in a
 * fixed order: regular before adult, then by serial number. Stock rows are always locked in
 * this order, so two orders can never wait on each other.
 */
export function mergeOrderLines(lines: readonly OrderLine[]): OrderLine[] {
  const merged = new Map<string, OrderLine>();
  for (const line of lines) {
    const key = keyOf(line);
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()].sort(compareLines);
}

export function compareLines(a: Omit<OrderLine, "quantity">, b: Omit<OrderLine, "quantity">) {
  if (a.productType !== b.productType) return a.productType === "regular" ? -1 : 1;
  return a.serialNo - b.serialNo;
}
