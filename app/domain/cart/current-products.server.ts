import type { Database } from "#app/db/client.server.ts";
import { adultTitlesBySerial } from "#app/domain/catalog/adult-titles.server.ts";
import { regularTitlesBySerial } from "#app/domain/catalog/regular-titles.server.ts";
import { adultCartProduct, regularCartProduct } from "#app/lib/cart-products.ts";
import { mergeKeyOf, type CartProduct, type ProductKind } from "#app/lib/cart.ts";

export type CartItemRef = { kind: ProductKind; serialNo: number };

/**
 * Today's title, price and poster of each product in a stored cart. Adult products are only
 * looked up for visitors past the age gate; for others they come back as `unknown` and the
 * browser keeps its line unchanged.
 */
export async function currentCartProducts(
  db: Database,
  items: CartItemRef[],
  options: { includeAdult: boolean },
): Promise<{ products: CartProduct[]; unknown: string[] }> {
  const regularSerials = items
    .filter((item) => item.kind === "regular")
    .map((item) => item.serialNo);
  const adultRefs = items.filter((item) => item.kind === "adult");
  const [regular, adult] = await Promise.all([
    regularTitlesBySerial(db, [...new Set(regularSerials)]),
    options.includeAdult
      ? adultTitlesBySerial(db, [...new Set(adultRefs.map((item) => item.serialNo))])
      : Promise.resolve([]),
  ]);
  return {
    products: [...regular.map(regularCartProduct), ...adult.map(adultCartProduct)],
    unknown: options.includeAdult ? [] : adultRefs.map(mergeKeyOf),
  };
}
