import { and, asc, count, eq, isNull, or, sql } from "drizzle-orm";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/client.server.ts";
import { violatedConstraint } from "#app/db/errors.ts";
import { productBarcodes, storeItems } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { imageMessages } from "#app/domain/posters/checked-image.server.ts";
import { processPosterUpload, releaseUploadedPosters } from "#app/domain/posters/upload.server.ts";
import {
  BARCODE_TAKEN,
  barcodeMatches,
  barcodeTaken,
  setBarcode,
} from "#app/domain/stock/barcodes.server.ts";
import { containsPattern } from "#app/domain/catalog/search-text.ts";
import { refuse, type Refusal } from "#app/lib/reply.server.ts";
import { clampPage, pageCountFor } from "#app/lib/pagination.ts";
import type { StoreItemValues } from "./item-input.ts";

// The store's own goods (decision 023): kept, found and archived by staff; sold at the counter.

export const STORE_ITEMS_PAGE_SIZE = 25;

export type StoreItem = {
  id: number;
  sku: string;
  name: string;
  priceCents: number;
  stock: number;
  taxable: boolean;
  barcode: string | null;
  photoUrl: string | null;
  archived: boolean;
};

const itemColumns = {
  id: storeItems.id,
  sku: storeItems.sku,
  name: storeItems.name,
  priceCents: storeItems.priceCents,
  stock: storeItems.stock,
  taxable: storeItems.taxable,
  barcode: productBarcodes.barcode,
  photoUrl: storeItems.photoUrl,
  archived: sql<boolean>`${storeItems.archivedAt} is not null`,
};

const withBarcode = and(
  eq(productBarcodes.productType, "item"),
  eq(productBarcodes.productId, storeItems.id),
);

/** A page of the items on sale (archived ones left out), searched by SKU, name or barcode. */
export async function listStoreItems(
  db: Database,
  options: { query?: string; page: number },
): Promise<{ items: StoreItem[]; total: number; page: number; pageCount: number }> {
  const text = options.query?.trim();
  const where = and(
    isNull(storeItems.archivedAt),
    text
      ? or(
          sql`lower(${storeItems.sku}) like lower(${containsPattern(text)})`,
          sql`lower(${storeItems.name}) like lower(${containsPattern(text)})`,
          barcodeMatches(text),
        )
      : undefined,
  );
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(storeItems)
    .leftJoin(productBarcodes, withBarcode)
    .where(where);
  const pageCount = pageCountFor(total, STORE_ITEMS_PAGE_SIZE);
  const page = clampPage(options.page, pageCount);
  const items = await db
    .select(itemColumns)
    .from(storeItems)
    .leftJoin(productBarcodes, withBarcode)
    .where(where)
    .orderBy(sql`lower(${storeItems.name})`, asc(storeItems.id))
    .limit(STORE_ITEMS_PAGE_SIZE)
    .offset((page - 1) * STORE_ITEMS_PAGE_SIZE);
  return { items, total, page, pageCount };
}

export async function getStoreItem(db: Database, id: number): Promise<StoreItem | undefined> {
  const [item] = await db
    .select(itemColumns)
    .from(storeItems)
    .leftJoin(productBarcodes, withBarcode)
    .where(eq(storeItems.id, id));
  return item;
}

type Saved = { ok: true; id: number } | Refusal<"invalid" | "not-found">;

const PHOTO_MESSAGES = imageMessages("photo");

/**
 * A photo chosen on the item's form, checked and stored as the catalogue's uploaded posters are
 * (WebP in a few widths under a random id, served at /uploads/posters/…): what `photo_url` is to
 * hold, or nothing when none was chosen.
 */
async function storePhoto(
  photo: File | undefined,
): Promise<{ ok: true; photoUrl: string | undefined } | Refusal<"invalid">> {
  if (!photo) return { ok: true, photoUrl: undefined };
  const upload = await processPosterUpload(new Uint8Array(await photo.arrayBuffer()), photo.name, {
    kind: "regular",
    messages: PHOTO_MESSAGES,
  });
  if (!upload.ok) {
    if (upload.cause) console.error("Store item photo upload failed", upload.cause);
    return refuse("invalid", upload.message, "photo");
  }
  return { ok: true, photoUrl: upload.posterUrl };
}

/** What a violated uniqueness means to the person who typed the form. */
function duplicate(error: unknown): Refusal<"invalid"> | undefined {
  const constraint = violatedConstraint(error);
  if (constraint === "store_items_sku") {
    return refuse("invalid", "Another item has this SKU.", "sku");
  }
  if (barcodeTaken(error)) return refuse("invalid", BARCODE_TAKEN, "barcode");
  return undefined;
}

/**
 * Adds an item, with its photo when one was chosen; its first stock starts its ledger, named for
 * the staff member. A photo whose item is not saved is removed again.
 */
export async function addStoreItem(
  db: Database,
  values: StoreItemValues,
  staff: Staff | null,
  photo?: File,
): Promise<Saved> {
  const stored = await storePhoto(photo);
  if (!stored.ok) return stored;
  try {
    return await db.transaction(async (tx) => {
      await withActor(tx, staff);
      const { barcode, ...item } = values;
      const [row] = await tx
        .insert(storeItems)
        .values({ ...item, photoUrl: stored.photoUrl ?? null })
        .returning({ id: storeItems.id });
      await setBarcode(tx, { type: "item", id: row!.id }, barcode);
      return { ok: true as const, id: row!.id };
    });
  } catch (error) {
    await releaseUploadedPosters(db, [stored.photoUrl]);
    const refused = duplicate(error);
    if (refused) return refused;
    throw error;
  }
}

/**
 * Saves an edit; a changed stock is the staff member's adjustment in the ledger. A photo chosen
 * replaces the item's: the old one's files go once the edit is saved, the new one's if it is not.
 */
export async function updateStoreItem(
  db: Database,
  id: number,
  values: StoreItemValues,
  staff: Staff | null,
  photo?: File,
): Promise<Saved> {
  const stored = await storePhoto(photo);
  if (!stored.ok) return stored;
  let saved: Saved & { replaced?: string | null };
  try {
    saved = await db.transaction(async (tx) => {
      await withActor(tx, staff);
      const { barcode, ...item } = values;
      const [before] = await tx
        .select({ photoUrl: storeItems.photoUrl })
        .from(storeItems)
        .where(and(eq(storeItems.id, id), isNull(storeItems.archivedAt)))
        .for("update");
      if (!before) return refuse("not-found", "This item no longer exists.");
      const photoUrl = stored.photoUrl ? { photoUrl: stored.photoUrl } : {};
      await tx
        .update(storeItems)
        .set({ ...item, ...photoUrl, updatedAt: new Date() })
        .where(eq(storeItems.id, id));
      await setBarcode(tx, { type: "item", id }, barcode);
      return { ok: true as const, id, replaced: stored.photoUrl ? before.photoUrl : null };
    });
  } catch (error) {
    await releaseUploadedPosters(db, [stored.photoUrl]);
    const refused = duplicate(error);
    if (refused) return refused;
    throw error;
  }
  if (!saved.ok) {
    await releaseUploadedPosters(db, [stored.photoUrl]);
    return saved;
  }
  await releaseUploadedPosters(db, [saved.replaced]);
  return { ok: true, id: saved.id };
}

/** Takes an item off sale for good; its sales keep it. Its barcode is free again. */
export async function archiveStoreItem(
  db: Database,
  id: number,
  staff: Staff | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await withActor(tx, staff);
    const [row] = await tx
      .update(storeItems)
      .set({ archivedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(storeItems.id, id), isNull(storeItems.archivedAt)))
      .returning({ id: storeItems.id });
    if (!row) return false;
    await setBarcode(tx, { type: "item", id }, null);
    return true;
  });
}
