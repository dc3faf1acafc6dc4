import { getEnv, shopContact, type Env } from "#app/lib/env.server.ts";
import { SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import type { CounterConfig } from "./sales.server.ts";

/** The counter's settings: the store's sales tax (in millionths) and the shop's calendar. */
export function counterConfig(env: Env = getEnv()): CounterConfig {
  return {
    taxRate: Math.round(env.STORE_SALES_TAX_RATE * 1_000_000),
    timeZone: env.SHOP_TIME_ZONE,
  };
}

/** The tax line's label at a rate in millionths: "Tax (8.25%)". */
export function taxLabel(rateMillionths: number): string {
  return `Tax (${Number((rateMillionths / 10_000).toFixed(4))}%)`;
}

/** The shop as the counter's paper heads it: name, address and phone. */
export function receiptShop() {
  return { name: SHOP.name, address: SHOP_ADDRESS, phone: shopContact().phone };
}

/** The counter's returns: the counter's settings and the web's returns window. */
export function counterReturnsConfig(env: Env = getEnv()) {
  return { ...counterConfig(env), windowDays: env.RETURN_WINDOW_DAYS };
}
