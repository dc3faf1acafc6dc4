import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import { sql } from "drizzle-orm";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles, comingSoon, regularTitles } from "#app/db/schema.ts";
import type { PosterKind } from "#app/lib/posters.ts";
import {
  UPLOADED_POSTER_WIDTHS,
  type UploadedPosterWidth,
  uploadedPosterFile,
  uploadedPosterId,
  uploadedPosterValue,
} from "#app/lib/uploaded-posters.ts";
import { type PosterStorage, posterStorage } from "./storage.server.ts";

export const MAX_POSTER_BYTES = 10 * 1024 * 1024;
export const MAX_POSTER_PIXELS = 40_000_000;
/** No image longer than this on either side is decoded, whatever its pixel count. */
export const MAX_POSTER_SIDE = 16_000;

export const POSTER_MESSAGES = {
  empty: "The poster file is empty.",
  tooLarge: "The poster is larger than 10 MB.",
  name: "The file name is not allowed; rename the file and try again.",
  type: "The poster must be a JPEG, PNG, WebP or AVIF image.",
  pixels: "The image is too large (more than 40 megapixels).",
  side: `The image is too large (more than ${MAX_POSTER_SIDE.toLocaleString("en-US")} pixels on a side).`,
  damaged: "The image could not be read; it may be damaged.",
  storage: "The poster could not be saved right now. Please try again.",
} as const;

/** What `file-type` finds in the bytes, and the loader sharp must then agree on. */
const ACCEPTED: Record<string, string> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/avif": "heif",
};

export type PosterUploadResult =
  | {
      ok: true;
      id: string;
      widths: UploadedPosterWidth[];
      /** What to store in the title's poster_url. */
      posterUrl: string;
    }
  | { ok: false; message: string; cause?: unknown };

// Control characters (NUL, line breaks among them) and both path separators.
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f/\\]/;

/**
 * The name is never used (files get server-chosen names), but one carrying a path, control
 * characters or an absurd length says something is wrong with the client, so it is refused.
 */
function isAcceptableName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  if (UNSAFE_NAME_CHARACTERS.test(name)) return false;
  return name !== "." && name !== "..";
}

class PosterRefused extends Error {}

function refuse(message: string): never {
  throw new PosterRefused(message);
}

/**
 * Decodes once into a poster of at most the largest width (no upscaling, aspect ratio kept,
 * orientation applied, every piece of metadata dropped), then encodes each width as WebP.
 */
async function encodeWidths(
  bytes: Uint8Array,
  loader: string,
): Promise<Map<UploadedPosterWidth, Buffer>> {
  const options = { limitInputPixels: MAX_POSTER_PIXELS, failOn: "error" as const };
  let metadata: Metadata;
  try {
    // Reads the header only; the limits are checked below with their own messages.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    refuse(POSTER_MESSAGES.damaged);
  }
  // sharp picks its loader from the bytes too; both readings must agree (a polyglot must not
  // be read as one format by file-type and as another by libvips).
  if (metadata.format !== loader) refuse(POSTER_MESSAGES.type);
  if (loader === "heif" && metadata.compression !== "av1") refuse(POSTER_MESSAGES.type);
  const { width, height } = metadata;
  if (!width || !height) refuse(POSTER_MESSAGES.damaged);
  // Checked before decoding: a small file can declare a huge image (a decompression bomb).
  if (width * height > MAX_POSTER_PIXELS) refuse(POSTER_MESSAGES.pixels);
  if (width > MAX_POSTER_SIDE || height > MAX_POSTER_SIDE) refuse(POSTER_MESSAGES.side);

  const largest = Math.max(...UPLOADED_POSTER_WIDTHS);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { ...options, autoOrient: true })
      .resize({ width: largest, height: largest * 2, fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw()
      .timeout({ seconds: 20 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      refuse(POSTER_MESSAGES.pixels);
    }
    refuse(POSTER_MESSAGES.damaged);
  }

  const raw = {
    width: decoded.info.width,
    height: decoded.info.height,
    channels: decoded.info.channels as 1 | 2 | 3 | 4,
  };
  const encoded = new Map<UploadedPosterWidth, Buffer>();
  for (const target of UPLOADED_POSTER_WIDTHS) {
    encoded.set(
      target,
      await sharp(decoded.data, { raw })
        .resize({ width: target, height: target * 2, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 80, effort: 4 })
        .toBuffer(),
    );
  }
  return encoded;
}

/**
 * Checks an uploaded poster and stores it as WebP in a few widths under a new random id.
 * The bytes must really be a JPEG, PNG, WebP or AVIF image that decodes in full within the size
 * and pixel limits; only the re-encoded images are stored, never the upload itself. When
 * anything fails, nothing is left in storage. Adult titles' posters get ids the storefront
 * serves only behind the age gate.
 */
export async function processPosterUpload(
  bytes: Uint8Array,
  originalName: string,
  options: { kind: PosterKind; storage?: PosterStorage },
): Promise<PosterUploadResult> {
  let encoded: Map<UploadedPosterWidth, Buffer>;
  try {
    if (!isAcceptableName(originalName)) refuse(POSTER_MESSAGES.name);
    if (bytes.byteLength === 0) refuse(POSTER_MESSAGES.empty);
    if (bytes.byteLength > MAX_POSTER_BYTES) refuse(POSTER_MESSAGES.tooLarge);
    const detected = await fileTypeFromBuffer(bytes);
    const loader = detected && ACCEPTED[detected.mime];
    if (!loader) refuse(POSTER_MESSAGES.type);
    encoded = await encodeWidths(bytes, loader);
  } catch (error) {
    if (error instanceof PosterRefused) return { ok: false, message: error.message };
    throw error;
  }

  const storage = options.storage ?? posterStorage();
  const id = `${options.kind === "adult" ? "adult-" : ""}${randomBytes(16).toString("hex")}`;
  const written: string[] = [];
  try {
    for (const [width, webp] of encoded) {
      const key = uploadedPosterFile(id, width);
      written.push(key);
      await storage.put(key, webp, "image/webp");
    }
  } catch (cause) {
    await Promise.allSettled(written.map((key) => storage.delete(key)));
    return { ok: false, message: POSTER_MESSAGES.storage, cause };
  }
  return {
    ok: true,
    id,
    widths: [...UPLOADED_POSTER_WIDTHS],
    posterUrl: uploadedPosterValue(id),
  };
}

/**
 * Removes every width of an uploaded poster, given a title's old `poster_url` value (after its
 * poster is replaced or the title deleted, once that change is committed). Values that are not
 * uploaded posters (nothing, an imported address) are left alone.
 */
export async function deleteUploadedPoster(
  posterUrl: string | null,
  storage: PosterStorage = posterStorage(),
): Promise<void> {
  const id = uploadedPosterId(posterUrl);
  if (!id) return;
  await Promise.all(
    UPLOADED_POSTER_WIDTHS.map((width) => storage.delete(uploadedPosterFile(id, width))),
  );
}

/**
 * Removes the files of those uploaded posters that no title or Coming Soon entry shows any
 * more: call it with the `poster_url` values a change dropped (a title deleted, a poster
 * replaced, a save that failed), once that change is committed. A poster still shown elsewhere
 * keeps its files. Failing to remove files is logged, not thrown: the change itself stands.
 */
export async function releaseUploadedPosters(
  db: Database,
  posterUrls: (string | null | undefined)[],
  storage?: PosterStorage,
): Promise<void> {
  const values = [
    ...new Set(
      posterUrls.filter((value): value is string => uploadedPosterId(value) !== undefined),
    ),
  ];
  if (values.length === 0) return;
  // One array parameter: an import can drop many posters at once.
  const wanted = sql`poster_url = any(${sql.param(values)}::text[])`;
  const { rows } = await db.execute<{ posterUrl: string }>(sql`
    select poster_url as "posterUrl" from ${regularTitles} where ${wanted}
    union select poster_url from ${adultTitles} where ${wanted}
    union select poster_url from ${comingSoon} where ${wanted}`);
  const stillShown = new Set(rows.map((row) => row.posterUrl));
  await Promise.all(
    values
      .filter((value) => !stillShown.has(value))
      .map((value) =>
        deleteUploadedPoster(value, storage).catch((error: unknown) =>
          console.warn("Could not remove the files of an uploaded poster", error),
        ),
      ),
  );
}
