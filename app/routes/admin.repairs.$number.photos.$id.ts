import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import type { StoredFile } from "#app/domain/posters/storage.server.ts";
import { ticketPhoto } from "#app/domain/repair-tickets/photos.server.ts";
import { ticketNumberParam } from "#app/domain/repair-tickets/shop-context.server.ts";
import { positiveInt, webpImageResponse } from "#app/lib/http.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import type { Route } from "./+types/admin.repairs.$number.photos.$id";

/**
 * GET /admin/repairs/R-1042/photos/7: an intake photo, to staff only. A customer's device (and
 * what is on its screen) is nobody else's business: never kept by a browser or a shared cache.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "repairs");
  const number = ticketNumberParam(params.number);
  const id = positiveInt(params.id);
  if (!number || !id) return jsonError(404, "No such photo.");
  let photo: StoredFile | null;
  try {
    photo = await ticketPhoto(getDb(), number, id);
  } catch {
    return jsonError(503, "The photo cannot be shown right now.");
  }
  if (!photo) return jsonError(404, "No such photo.");
  return webpImageResponse(photo.bytes, "private, no-store");
}
