import { z } from "zod";
import { getDb } from "#app/db/client.server.ts";
import { isAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { currentCartProducts } from "#app/domain/cart/current-products.server.ts";
import { productKinds } from "#app/lib/cart.ts";
import { jsonError } from "#app/lib/json.server.ts";
import type { Route } from "./+types/api.cart.prices";
import { readJson } from "#app/lib/request.server.ts";

const bodySchema = z.object({
  items: z
    .array(
      z.object({
        kind: z.enum(productKinds),
        serialNo: z.number().int().positive().max(2_147_483_647),
      }),
    )
    .max(200),
});

export function loader() {
  return jsonError(405, "Use POST with a JSON body { items: [{ kind, serialNo }] }.");
}

/** POST /api/cart/prices: re-prices a cart kept in the browser from the catalogue. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonError(405, "Only POST is allowed.");
  const parsed = bodySchema.safeParse(await readJson(request));
  if (!parsed.success) return jsonError(400, "Invalid cart items.", z.treeifyError(parsed.error));
  const result = await currentCartProducts(getDb(), parsed.data.items, {
    includeAdult: await isAgeVerified(request),
  });
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}
