import type { Database } from "#app/db/client.server.ts";
import type { adultTitles, regularTitles } from "#app/db/schema.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import {
  addAdultTitle,
  addRegularTitle,
  updateAdultTitle,
  updateRegularTitle,
} from "./admin-titles.server.ts";
import { adultTitleSchema, regularTitleSchema } from "./title-input.ts";

type FormValues = Record<string, string>;

export type SaveResult =
  | { ok: true; serialNo: number }
  | {
      ok: false;
      values: FormValues;
      errors: Record<string, string | undefined>;
      message: string | null;
    };

const dollars = (cents: number) => (cents / 100).toFixed(2);

const REGULAR_NAMES = Object.keys(regularTitleSchema.shape);
const ADULT_NAMES = Object.keys(adultTitleSchema.shape);

function pick(form: FormValues, names: string[]): FormValues {
  return Object.fromEntries(names.map((name) => [name, form[name] ?? ""]));
}

/** A stored regular title as the edit form shows it. */
export function regularFormValues(row: typeof regularTitles.$inferSelect): FormValues {
  return {
    productId: row.productId,
    qtyToList: String(row.qtyToList),
    title: row.title,
    releaseYear: row.releaseYear === null ? "" : String(row.releaseYear),
    disc: row.disc,
    type: row.type ?? "",
    currentPriceCents: dollars(row.currentPriceCents),
    description: row.description ?? "",
    genres: row.genres ?? "",
    director: row.director ?? "",
    cast: row.cast ?? "",
  };
}

export function adultFormValues(row: typeof adultTitles.$inferSelect): FormValues {
  return {
    productId: String(row.productId),
    condition: row.condition ?? "",
    priceCents: dollars(row.priceCents),
    quantity: String(row.quantity),
    title: row.title,
    production: row.production ?? "",
    releaseDate: row.releaseDate ?? "",
    description: row.description ?? "",
  };
}

const GONE = "This title no longer exists; it may have been deleted meanwhile.";

/** Adds (no serial) or saves (a serial) a regular title from the submitted form. */
export async function saveRegularTitle(
  db: Database,
  form: FormValues,
  serialNo?: number,
): Promise<SaveResult> {
  const values = pick(form, REGULAR_NAMES);
  const parsed = regularTitleSchema.safeParse(values);
  if (!parsed.success) {
    return { ok: false, values, errors: fieldErrors(parsed.error), message: null };
  }
  if (serialNo === undefined) return { ok: true, serialNo: await addRegularTitle(db, parsed.data) };
  if (await updateRegularTitle(db, serialNo, parsed.data)) return { ok: true, serialNo };
  return { ok: false, values, errors: {}, message: GONE };
}

export async function saveAdultTitle(
  db: Database,
  form: FormValues,
  serialNo?: number,
): Promise<SaveResult> {
  const values = pick(form, ADULT_NAMES);
  const parsed = adultTitleSchema.safeParse(values);
  if (!parsed.success) {
    return { ok: false, values, errors: fieldErrors(parsed.error), message: null };
  }
  if (serialNo === undefined) return { ok: true, serialNo: await addAdultTitle(db, parsed.data) };
  if (await updateAdultTitle(db, serialNo, parsed.data)) return { ok: true, serialNo };
  return { ok: false, values, errors: {}, message: GONE };
}
