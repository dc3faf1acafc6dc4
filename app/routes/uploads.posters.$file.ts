import { isAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { posterStorage, type StoredFile } from "#app/domain/posters/storage.server.ts";
import { webpImageResponse } from "#app/lib/http.server.ts";
import { jsonError } from "#app/lib/json.server.ts";
import { parseUploadedPosterFile, uploadedPosterFile } from "#app/lib/uploaded-posters.ts";
import type { Route } from "./+types/uploads.posters.$file";

/** A file's name never changes its content (new upload, new random id), so keep it a year. */
const UPLOADED_POSTER_CACHE = "public, max-age=31536000, immutable";
/** Adult posters are answered per visitor, after the age gate, like the drawn ones. */
const ADULT_POSTER_CACHE = "private, max-age=86400";

/** GET /uploads/posters/{id}-{160|320|640}.webp: one width of an uploaded poster. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const poster = parseUploadedPosterFile(params.file);
  if (!poster) return jsonError(404, "No such poster.");
  if (poster.adult && !(await isAgeVerified(request))) {
    return jsonError(403, "Confirm your age to see adult posters.");
  }
  let stored: StoredFile | null;
  try {
    stored = await posterStorage().get(uploadedPosterFile(poster.id, poster.width));
  } catch {
    // The bucket or disk cannot answer: say so (DESIGN §3.14); the image falls back meanwhile.
    return jsonError(503, "The poster cannot be shown right now.");
  }
  if (!stored) return jsonError(404, "No such poster.");
  return webpImageResponse(stored.bytes, poster.adult ? ADULT_POSTER_CACHE : UPLOADED_POSTER_CACHE);
}
