import type { CartProduct } from "./cart.ts";

type Sellable = { title: string; poster: string; disc: string | null; priceCents: number };

export function regularCartProduct(title: Sellable & { regSerialNo: number }): CartProduct {
  return {
    kind: "regular",
    serialNo: title.regSerialNo,
    title: title.title,
    posterUrl: title.poster,
    disc: title.disc,
    priceCents: title.priceCents,
  };
}

export function adultCartProduct(title: Sellable & { adultSerialNo: number }): CartProduct {
  return {
    kind: "adult",
    serialNo: title.adultSerialNo,
    title: title.title,
    posterUrl: title.poster,
    disc: title.disc,
    priceCents: title.priceCents,
  };
}
