import type { ZodError } from "zod";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import type { adultTitles, regularTitles } from "#app/db/schema.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { processPosterUpload, releaseUploadedPosters } from "#app/domain/posters/upload.server.ts";
import type { ProductType } from "#app/lib/catalog.ts";
import type { Refusal } from "#app/lib/reply.server.ts";
import {
  addAdultTitle,
  addRegularTitle,
  getAdultTitleForEdit,
  getRegularTitleForEdit,
  updateAdultTitle,
  updateRegularTitle,
} from "./admin-titles.server.ts";
import {
  adultTitleSchema,
  regularTitleSchema,
  type AdultTitleValues,
  type RegularTitleValues,
} from "./title-input.ts";
import { formatPriceInput } from "#app/lib/money.ts";
import { barcodeField } from "#app/domain/stock/barcode.ts";
import { BARCODE_TAKEN, barcodeTaken, setBarcode } from "#app/domain/stock/barcodes.server.ts";

type FormValues = Record<string, string>;

/** Saved, or refused with the form as typed and, when it is about fields, each field's message. */
export type SaveResult =
  | { ok: true; serialNo: number }
  | (Refusal<"invalid" | "not-found"> & {
      values: FormValues;
      errors?: Record<string, string | undefined>;
    });

/** The fields' messages, the first standing for the whole form. */
function invalidFields(values: FormValues, errors: Record<string, string | undefined>): SaveResult {
  return { ok: false, reason: "invalid", message: Object.values(errors)[0] ?? "", values, errors };
}

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
    currentPriceCents: formatPriceInput(row.currentPriceCents),
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
    priceCents: formatPriceInput(row.priceCents),
    quantity: String(row.quantity),
    title: row.title,
    production: row.production ?? "",
    releaseDate: row.releaseDate ?? "",
    description: row.description ?? "",
  };
}

const GONE = "This title no longer exists; it may have been deleted meanwhile.";

type Catalogue<Values> = {
  kind: ProductType;
  names: string[];
  parse: (
    values: FormValues,
  ) => { success: true; data: Values } | { success: false; error: ZodError };
  add: (
    db: Database | Transaction,
    values: Values & { posterUrl?: string | null },
  ) => Promise<number>;
  update: (
    db: Database | Transaction,
    serialNo: number,
    values: Values & { posterUrl?: string | null },
  ) => Promise<boolean>;
  currentPoster: (db: Database, serialNo: number) => Promise<string | null | undefined>;
};

/**
 * Adds (no serial) or saves (a serial) a title from the submitted form. The fields are checked
 * first; only then is a new poster read, checked and stored, and it replaces the old one only
 * once the title is saved (a failed save removes the new files, a saved one the old files).
 */
async function save<Values>(
  db: Database,
  catalogue: Catalogue<Values>,
  form: { fields: FormValues; files: Record<string, File> },
  { serialNo, staff }: SaveTarget,
): Promise<SaveResult> {
  const values = pick(form.fields, [...catalogue.names, "barcode"]);
  const parsed = catalogue.parse(values);
  // The barcode is not the title's own column (one table holds the shop's barcodes): checked
  // beside the schema, as the CSV import checks its Barcode column.
  const barcode = barcodeField.safeParse(values.barcode);
  if (!parsed.success || !barcode.success) {
    const errors = {
      ...(parsed.success ? {} : fieldErrors(parsed.error)),
      ...(barcode.success ? {} : { barcode: barcode.error.issues[0]?.message }),
    };
    return invalidFields(values, errors);
  }
  const data: Values & { posterUrl?: string | null } = Object.assign({}, parsed.data, {});
  const file = form.files.poster;
  if (file) {
    const upload = await processPosterUpload(new Uint8Array(await file.arrayBuffer()), file.name, {
      kind: catalogue.kind,
    });
    if (!upload.ok) {
      if (upload.cause) console.error("Poster upload failed", upload.cause);
      return invalidFields(values, { poster: upload.message });
    }
    data.posterUrl = upload.posterUrl;
  }
  const oldPoster = serialNo === undefined ? null : await catalogue.currentPoster(db, serialNo);
  // The staff member is named for the stock ledger: a changed quantity is their adjustment. The
  // barcode is saved with the title, or neither is.
  const write = (work: (tx: Transaction) => Promise<number | undefined>) =>
    db.transaction(async (tx) => {
      await withActor(tx, staff);
      const saved = await work(tx);
      if (saved !== undefined) {
        await setBarcode(tx, { type: catalogue.kind, id: saved }, barcode.data);
      }
      return saved;
    });
  let saved: number | undefined;
  try {
    saved =
      serialNo === undefined
        ? await write((tx) => catalogue.add(tx, data))
        : await write(async (tx) =>
            (await catalogue.update(tx, serialNo, data)) ? serialNo : undefined,
          );
  } catch (error) {
    await releaseUploadedPosters(db, [data.posterUrl]);
    if (barcodeTaken(error)) return invalidFields(values, { barcode: BARCODE_TAKEN });
    throw error;
  }
  if (saved === undefined) {
    await releaseUploadedPosters(db, [data.posterUrl]);
    return { ok: false, reason: "not-found", message: GONE, values };
  }
  if (data.posterUrl) await releaseUploadedPosters(db, [oldPoster]);
  return { ok: true, serialNo: saved };
}

const REGULAR: Catalogue<RegularTitleValues> = {
  kind: "regular",
  names: REGULAR_NAMES,
  parse: (values) => regularTitleSchema.safeParse(values),
  add: addRegularTitle,
  update: updateRegularTitle,
  currentPoster: async (db, serialNo) => (await getRegularTitleForEdit(db, serialNo))?.posterUrl,
};

const ADULT: Catalogue<AdultTitleValues> = {
  kind: "adult",
  names: ADULT_NAMES,
  parse: (values) => adultTitleSchema.safeParse(values),
  add: addAdultTitle,
  update: updateAdultTitle,
  currentPoster: async (db, serialNo) => (await getAdultTitleForEdit(db, serialNo))?.posterUrl,
};

/** Which title a form saves (none: a new one), and who saves it. */
type SaveTarget = { serialNo?: number; staff: Staff | null };

export function saveRegularTitle(
  db: Database,
  form: { fields: FormValues; files: Record<string, File> },
  target: SaveTarget,
) {
  return save(db, REGULAR, form, target);
}

export function saveAdultTitle(
  db: Database,
  form: { fields: FormValues; files: Record<string, File> },
  target: SaveTarget,
) {
  return save(db, ADULT, form, target);
}
