// Photos of a device taken at intake: checked and re-encoded by the same pipeline as posters,
// kept in the private area of the upload storage, and shown to staff only.
import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { repairTicketPhotos } from "#app/db/schema.ts";
import {
  checkUploadedImage,
  encodeWebp,
  imageMessages,
} from "#app/domain/posters/checked-image.server.ts";
import { type PosterStorage, repairPhotoStorage } from "#app/domain/posters/storage.server.ts";
import { MAX_TICKET_PHOTOS } from "./ticket-input.ts";

export const PHOTO_MESSAGES = imageMessages("photo");

/** Large enough to read a serial plate or a scratch, small enough for the bench's screen. */
const PHOTO_BOX = { width: 1600, height: 1600 };

/** A file as it came from the form. */
export type PhotoUpload = { name: string; bytes: Uint8Array };

/** A photo checked, re-encoded and written to storage under a key of the server's choosing. */
export type StoredPhoto = { storageKey: string; width: number; height: number };

/**
 * Checks each photo (the poster pipeline's checks) and writes its WebP re-encoding to the
 * private storage. All or nothing: a refused photo (its number and name in the message) or a
 * failed write leaves nothing stored.
 */
export async function storePhotos(
  files: PhotoUpload[],
  storage: PosterStorage = repairPhotoStorage(),
): Promise<{ ok: true; photos: StoredPhoto[] } | { ok: false; message: string; cause?: unknown }> {
  if (files.length > MAX_TICKET_PHOTOS) {
    return { ok: false, message: `Attach at most ${MAX_TICKET_PHOTOS} photos.` };
  }
  const encoded = [];
  for (const [index, file] of files.entries()) {
    const checked = await checkUploadedImage(file.bytes, file.name, {
      box: PHOTO_BOX,
      messages: PHOTO_MESSAGES,
    });
    if (!checked.ok) {
      const which = files.length > 1 ? `Photo ${index + 1} (${file.name})` : file.name;
      return { ok: false, message: `${which}: ${checked.message}` };
    }
    encoded.push(await encodeWebp(checked.image, PHOTO_BOX));
  }
  const photos: StoredPhoto[] = [];
  try {
    for (const { webp, width, height } of encoded) {
      const storageKey = `${randomBytes(16).toString("hex")}.webp`;
      photos.push({ storageKey, width, height });
      await storage.put(storageKey, webp, "image/webp");
    }
  } catch (cause) {
    await discardPhotos(photos, storage);
    return { ok: false, message: PHOTO_MESSAGES.storage, cause };
  }
  return { ok: true, photos };
}

/** Removes stored photos whose ticket was not saved after all; failures are only logged. */
export async function discardPhotos(
  photos: StoredPhoto[],
  storage: PosterStorage = repairPhotoStorage(),
): Promise<void> {
  const results = await Promise.allSettled(photos.map((photo) => storage.delete(photo.storageKey)));
  for (const result of results) {
    if (result.status === "rejected") {
      console.warn("Could not remove a repair photo that was not kept", result.reason);
    }
  }
}

/** Records stored photos as the ticket's, in the transaction that opens it. */
export async function recordPhotos(
  tx: Transaction,
  ticketNumber: number,
  photos: StoredPhoto[],
  addedBy: string,
): Promise<void> {
  if (photos.length === 0) return;
  await tx.insert(repairTicketPhotos).values(
    photos.map((photo) => ({
      ticketNumber,
      storageKey: photo.storageKey,
      contentType: "image/webp",
      width: photo.width,
      height: photo.height,
      addedBy,
    })),
  );
}

/** A ticket's photos, in the order they were attached. */
export async function photosOfTicket(db: Database, ticketNumber: number) {
  return db
    .select({
      id: repairTicketPhotos.id,
      width: repairTicketPhotos.width,
      height: repairTicketPhotos.height,
    })
    .from(repairTicketPhotos)
    .where(eq(repairTicketPhotos.ticketNumber, ticketNumber))
    .orderBy(asc(repairTicketPhotos.id));
}

/** One photo's bytes, found through its own ticket only; null when there is no such photo. */
export async function ticketPhoto(
  db: Database,
  ticketNumber: number,
  id: number,
  storage: PosterStorage = repairPhotoStorage(),
) {
  const [photo] = await db
    .select({ storageKey: repairTicketPhotos.storageKey })
    .from(repairTicketPhotos)
    .where(and(eq(repairTicketPhotos.id, id), eq(repairTicketPhotos.ticketNumber, ticketNumber)));
  if (!photo) return null;
  return storage.get(photo.storageKey);
}
