import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles, comingSoon, regularTitles, storeItems } from "#app/db/schema.ts";
import type { PosterKind } from "#app/lib/posters.ts";
import {
  UPLOADED_POSTER_WIDTHS,
  type UploadedPosterWidth,
  uploadedPosterFile,
  uploadedPosterId,
  uploadedPosterValue,
} from "#app/lib/uploaded-posters.ts";
import {
  checkUploadedImage,
  encodeWebp,
  imageMessages,
  type ImageMessages,
} from "./checked-image.server.ts";
import { type PosterStorage, posterStorage } from "./storage.server.ts";

export const POSTER_MESSAGES = imageMessages("poster");

export type PosterUploadResult =
  | {
      ok: true;
      id: string;
      widths: UploadedPosterWidth[];
      /** What to store in the title's poster_url. */
      posterUrl: string;
    }
  | { ok: false; message: string; cause?: unknown };

const LARGEST_WIDTH = Math.max(...UPLOADED_POSTER_WIDTHS);

/**
 * Checks an uploaded poster and stores it as WebP in a few widths under a new random id.
 * The bytes must really be a JPEG, PNG, WebP or AVIF image that decodes in full within the size
 * and pixel limits; only the re-encoded images are stored, never the upload itself. When
 * anything fails, nothing is left in storage. Adult titles' posters get ids the storefront
 * serves only behind the age gate. A store item's photo is kept the same way, its messages
 * saying "photo" (`messages`).
 */
export async function processPosterUpload(
  bytes: Uint8Array,
  originalName: string,
  options: { kind: PosterKind; storage?: PosterStorage; messages?: ImageMessages },
): Promise<PosterUploadResult> {
  const messages = options.messages ?? POSTER_MESSAGES;
  // Decoded once into a poster of at most the largest width, then encoded at each width.
  const checked = await checkUploadedImage(bytes, originalName, {
    box: { width: LARGEST_WIDTH, height: LARGEST_WIDTH * 2 },
    messages,
  });
  if (!checked.ok) return checked;
  const encoded = new Map<UploadedPosterWidth, Buffer>();
  for (const width of UPLOADED_POSTER_WIDTHS) {
    encoded.set(width, (await encodeWebp(checked.image, { width, height: width * 2 })).webp);
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
    return { ok: false, message: messages.storage, cause };
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
 * Removes the files of those uploaded posters that no title, Coming Soon entry or store item
 * (its photo) shows any more: call it with the `poster_url` or `photo_url` values a change
 * dropped (a title deleted, a poster or photo replaced, a save that failed), once that change is
 * committed. A poster still shown elsewhere
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
    union select poster_url from ${comingSoon} where ${wanted}
    union select photo_url from ${storeItems} where photo_url = any(${sql.param(values)}::text[])`);
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
