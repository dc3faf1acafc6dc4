import { and, asc, eq, getTableColumns, getTableName, gt, inArray, sql } from "drizzle-orm";
import { PgTransaction, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { withActor } from "#app/db/actor.server.ts";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { insertUnnested, updateChanged } from "#app/db/unnest.server.ts";
import { adultTitles, comingSoon, productBarcodes, regularTitles } from "#app/db/schema.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import { barcodeField, gtinOf } from "#app/domain/stock/barcode.ts";
import {
  barcodeClaimProblems,
  barcodeTaken,
  setBarcodes,
} from "#app/domain/stock/barcodes.server.ts";
import { nameStockMove } from "#app/domain/stock/ledger.server.ts";
import { releaseUploadedPosters } from "#app/domain/posters/upload.server.ts";
import { DISCS } from "#app/lib/catalog.ts";
import {
  columnLabels,
  CsvImportError,
  csvRows,
  firstRowOf,
  issueReasons,
  keysRequiredBy,
  namesColumn,
  readCsvImport,
  refuseRows,
  schemaInput,
  type CsvCell,
  type CsvColumn,
  type CsvImportFormat,
  type CsvImportInput,
  type CsvImportReport,
  type CsvImportRow,
} from "#app/lib/csv.server.ts";
import { isAdultPosterId, uploadedPosterId } from "#app/lib/uploaded-posters.ts";
import { adultTitleSchema, regularTitleSchema } from "./title-input.ts";

// CSV import and export of the two catalogues, in the column names of the shop's old data
// (spec §2 of DESIGN.md), so the owner can bring the existing catalogue over and edit it in a
// spreadsheet. Rows are validated by the same zod schemas as the admin forms.

export type CatalogKind = "regular" | "adult";

export type CatalogImportReport = CsvImportReport & { kind: CatalogKind };

/** Rows per INSERT statement (one array parameter per column, so no parameter limit). */
const WRITE_BATCH = 5_000;
/** Rows per keyset page of an export. */
const EXPORT_PAGE = 2_000;
const MAX_POSTER_URL = 2_000;
/**
 * Far above any real catalogue, and far enough below the column's limit (2,147,483,647) that the
 * serials added after the highest one can never run out.
 */
export const MAX_SERIAL = 99_999_999;

type Table = typeof regularTitles | typeof adultTitles;

type Format<Row, Values> = CsvImportFormat & {
  table: Table;
  serialColumn: PgColumn;
  serialHeader: string;
  /** The spec's column names in the spec's order, each with the schema key it feeds. */
  columns: readonly CsvColumn[];
  schema: z.ZodType<Values, Record<string, string>>;
  serialOf: (row: Row) => number;
  /** A title's cells, its barcode (joined from the shop's barcodes) last. */
  exportCells: (row: Row & { barcode: string | null }) => CsvCell[];
};

const dollars = (cents: number) =>
  `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** Says so when the other catalogue's file is uploaded here by mistake. */
const otherCatalogue = (otherSerialHeader: string, other: CatalogKind) => (header: string[]) =>
  header.some((cell) => namesColumn(cell, otherSerialHeader))
    ? ` This looks like the ${other} catalogue's file.`
    : "";

// The barcode came after the spec's columns: optional, so the owner's old files still import, and
// last, so they read as they always did. Checked as the title form checks it, not by the schema.
const BARCODE_COLUMN = { header: "Barcode", key: "barcode" };

const REGULAR_COLUMNS = [
  { header: "RegSerialNo", key: "serial" },
  { header: "ProductID", key: "productId" },
  { header: "QtyToList", key: "qtyToList" },
  { header: "Title", key: "title" },
  { header: "Release Year", key: "releaseYear" },
  { header: "Disc", key: "disc" },
  { header: "Type", key: "type" },
  { header: "CurrentPrice", key: "currentPriceCents" },
  { header: "Description", key: "description" },
  { header: "Genres", key: "genres" },
  { header: "Director", key: "director" },
  { header: "Cast", key: "cast" },
  { header: "PosterURL", key: "posterUrl" },
  BARCODE_COLUMN,
];

const regularFormat: Format<
  typeof regularTitles.$inferSelect,
  z.output<typeof regularTitleSchema>
> = {
  table: regularTitles,
  serialColumn: regularTitles.regSerialNo,
  serialHeader: "RegSerialNo",
  columns: REGULAR_COLUMNS,
  // Required: what the schema cannot do without. Optional columns left out of the file keep
  // their current values on titles that are updated.
  required: keysRequiredBy(REGULAR_COLUMNS, regularTitleSchema),
  hint: otherCatalogue("AdultSerialNo", "adult"),
  schema: regularTitleSchema,
  serialOf: (row) => row.regSerialNo,
  exportCells: (row) => [
    row.regSerialNo,
    row.productId,
    row.qtyToList,
    row.title,
    row.releaseYear,
    row.disc,
    row.type,
    dollars(row.currentPriceCents),
    row.description,
    row.genres,
    row.director,
    row.cast,
    row.posterUrl,
    row.barcode,
  ],
};

const ADULT_COLUMNS = [
  { header: "AdultSerialNo", key: "serial" },
  { header: "ProductID", key: "productId" },
  { header: "Condition", key: "condition" },
  { header: "Price", key: "priceCents" },
  { header: "Quantity", key: "quantity" },
  { header: "Title", key: "title" },
  { header: "Production", key: "production" },
  { header: "Release Date", key: "releaseDate" },
  { header: "PosterURL", key: "posterUrl" },
  { header: "Description", key: "description" },
  BARCODE_COLUMN,
];

const adultFormat: Format<typeof adultTitles.$inferSelect, z.output<typeof adultTitleSchema>> = {
  table: adultTitles,
  serialColumn: adultTitles.adultSerialNo,
  serialHeader: "AdultSerialNo",
  columns: ADULT_COLUMNS,
  required: keysRequiredBy(ADULT_COLUMNS, adultTitleSchema),
  hint: otherCatalogue("RegSerialNo", "regular"),
  schema: adultTitleSchema,
  serialOf: (row) => row.adultSerialNo,
  exportCells: (row) => [
    row.adultSerialNo,
    row.productId,
    row.condition,
    dollars(row.priceCents),
    row.quantity,
    row.title,
    row.production,
    row.releaseDate,
    row.posterUrl,
    row.description,
    row.barcode,
  ],
};

// Both formats are used through the same code; their row types only meet inside it.
type AnyFormat = Format<Record<string, unknown>, Record<string, unknown>>;
const FORMATS = { regular: regularFormat, adult: adultFormat } as unknown as Record<
  CatalogKind,
  AnyFormat
>;

/** The spec's column names of a catalogue's CSV, in order. */
export function catalogCsvColumns(kind: CatalogKind): string[] {
  return FORMATS[kind].columns.map((column) => column.header);
}

// ---------------------------------------------------------------------------------------------
// Export

/**
 * The whole catalogue as CSV text, one chunk per page of 2,000 titles read in serial order
 * (keyset, so the last page costs what the first does). Pull-based: nothing is read ahead of
 * the consumer, so a slow download holds one page in memory. Wrap with `Readable.from(...)` or
 * `ReadableStream.from(...)` to send it.
 *
 * Starts with a UTF-8 byte order mark unless `bom: false`: without it Excel reads the file as
 * the local code page and garbles accented titles. The import accepts files with or without.
 */
export async function* exportCatalogCsv(
  db: Database | Transaction,
  kind: CatalogKind,
  options: { bom?: boolean } = {},
): AsyncGenerator<string, void, undefined> {
  const format = FORMATS[kind];
  yield csvRows([catalogCsvColumns(kind)], { bom: options.bom ?? true });
  let after = 0;
  for (;;) {
    const rows = (await db
      .select({ ...getTableColumns(format.table as PgTable), barcode: productBarcodes.barcode })
      .from(format.table as PgTable)
      .leftJoin(
        productBarcodes,
        and(
          eq(productBarcodes.productType, kind),
          eq(productBarcodes.productId, format.serialColumn),
          // Said of the barcodes too, or each page's join reads them from the first title on.
          gt(productBarcodes.productId, after),
        ),
      )
      .where(gt(format.serialColumn, after))
      .orderBy(asc(format.serialColumn))
      .limit(EXPORT_PAGE)) as (Record<string, unknown> & { barcode: string | null })[];
    if (rows.length === 0) return;
    yield csvRows(rows.map(format.exportCells));
    if (rows.length < EXPORT_PAGE) return;
    after = format.serialOf(rows.at(-1)!);
  }
}

// ---------------------------------------------------------------------------------------------
// Import

type ValidRow = {
  row: number;
  serial: number | undefined;
  values: Record<string, unknown>;
  barcode: string | null;
};

/**
 * PosterURL as the shop stores it: empty (the drawn poster), `upload:{id}` for a poster
 * uploaded here (what an export writes; adult ids only on adult titles), an absolute http(s)
 * address (the old data's hosts) or a path on this site.
 */
function posterUrlProblem(value: string, kind: CatalogKind): string | undefined {
  if (value === "") return undefined;
  if (value.length > MAX_POSTER_URL) return `PosterURL: At most ${MAX_POSTER_URL} characters.`;
  if (value.startsWith("upload:")) {
    const id = uploadedPosterId(value);
    if (!id) return "PosterURL: not a poster uploaded to this shop.";
    if (isAdultPosterId(id) !== (kind === "adult")) {
      return `PosterURL: that uploaded poster belongs to the ${kind === "adult" ? "regular" : "adult"} catalogue.`;
    }
    return undefined;
  }
  const sitePath = value.startsWith("/") && !value.startsWith("//") && !value.includes("\\");
  let absolute = false;
  try {
    const url = new URL(value);
    absolute = (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    // not an absolute URL
  }
  if ((sitePath || absolute) && !/[\s\p{Cc}]/u.test(value)) return undefined;
  return "PosterURL must be empty, an http(s) address or a path on this site starting with /.";
}

function canonicalDisc(value: string): string {
  const trimmed = value.trim();
  return DISCS.find((disc) => disc.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
}

/**
 * Checks a catalogue CSV row by row and, unless it is a dry run, writes it: every row or none.
 *
 * A row with an empty serial becomes a new title (the database assigns its serial); a row whose
 * serial exists updates that title; a new serial is inserted as given. A Barcode column, where
 * the file has one, gives each title its barcode (an empty cell: none); a code another product
 * has, or another row of the file, is a rejected row. Rejected rows come back
 * with their row number and reasons, and then nothing is written (`written: false`). Problems
 * with the file as a whole (unknown or missing columns, more than 200,000 rows, broken quoting)
 * throw a `CsvImportError` with a message for the person who uploaded it. The ledger names the
 * stock it changes a CSV import, by `staff` (none from the command line).
 *
 * The checked rows are kept in memory until they are written (a few hundred bytes per title):
 * callers should limit the size of an upload.
 */
export async function importCatalogCsv(
  db: Database | Transaction,
  kind: CatalogKind,
  input: CsvImportInput,
  options: { dryRun: boolean; staff?: Staff | null },
): Promise<CatalogImportReport> {
  const format = FORMATS[kind];
  const { valid, rejected, uploadedPosters, presentKeys, total } = await checkRows(
    format,
    kind,
    input,
  );

  // An uploaded poster stays with its title: naming it on another one would show the same files
  // on both, and replacing it on one would then remove what the other still shows.
  const posterProblems = await uploadedPosterProblems(db, format, uploadedPosters);
  refuseRows(valid, rejected, posterProblems);
  const withBarcodes = presentKeys.includes("barcode");
  if (withBarcodes) {
    const claims = valid.map((row) => ({ row: row.row, id: row.serial, barcode: row.barcode }));
    refuseRows(valid, rejected, await barcodeClaimProblems(db, kind, claims));
  }

  const report = (existing: Set<number>, written: boolean): CatalogImportReport => {
    const updated = valid.filter((row) => row.serial !== undefined && existing.has(row.serial));
    return {
      kind,
      dryRun: options.dryRun,
      written,
      total,
      added: valid.length - updated.length,
      updated: updated.length,
      rejected,
    };
  };
  const serials = valid.flatMap((row) => (row.serial === undefined ? [] : [row.serial]));

  if (options.dryRun || rejected.length > 0) {
    return report(await existingSerials(db, format, serials), false);
  }
  // Only the columns the file has are changed on titles it updates.
  const updateKeys = presentKeys.filter((key) => key !== "serial" && key !== "barcode");
  const written = await db
    .transaction(async (tx) => {
      await withActor(tx, options.staff ?? null);
      await nameStockMove(tx, { reason: "import", reference: "CSV import" });
      const existing = await existingSerials(tx, format, serials);
      const replaced = updateKeys.includes("posterUrl")
        ? await uploadedPostersOf(tx, format, serials)
        : [];
      const titles = await writeRows(tx, format, valid, updateKeys);
      if (withBarcodes) {
        // Only titles that have a barcode now or may have had one: a new title without one has
        // nothing to write.
        const barcodes = titles.filter((row) => row.barcode !== null || existing.has(row.serial));
        await setBarcodes(
          tx,
          kind,
          barcodes.map((row) => ({ id: row.serial, barcode: row.barcode })),
        );
      }
      return { report: report(existing, true), replaced };
    })
    .catch((error: unknown) => {
      // Checked above, and taken meanwhile by a product saved in the back office.
      if (!barcodeTaken(error)) throw error;
      throw new CsvImportError(
        "A barcode in the file was just given to another product. Check the file again.",
      );
    });
  // Posters the import took off their titles go once it is committed; inside a caller's
  // transaction the commit is the caller's, so the files are left alone.
  if (!(db instanceof PgTransaction)) await releaseUploadedPosters(db, written.replaced);
  return written.report;
}

/** What reading a file found: the rows to write, the rows refused, and the posters they name. */
type CheckedRows = {
  valid: ValidRow[];
  rejected: CatalogImportReport["rejected"];
  uploadedPosters: PosterClaim[];
  /** The schema keys the file's header names. */
  presentKeys: string[];
  /** Data rows read (blank lines not counted). */
  total: number;
};

/** What checking one row needs from the rows before it. */
type RowCheck = {
  format: AnyFormat;
  kind: CatalogKind;
  /** Each schema key's column header, to name the column a problem is in. */
  label: Record<string, string>;
  repeatedSerial: ReturnType<typeof firstRowOf>;
  repeatedBarcode: ReturnType<typeof firstRowOf>;
  valid: ValidRow[];
  rejected: CatalogImportReport["rejected"];
  uploadedPosters: PosterClaim[];
};

/** Reads the file and checks each of its rows; a problem with the file as a whole throws. */
async function checkRows(
  format: AnyFormat,
  kind: CatalogKind,
  input: CsvImportInput,
): Promise<CheckedRows> {
  const check: RowCheck = {
    format,
    kind,
    label: columnLabels(format.columns),
    repeatedSerial: firstRowOf(format.serialHeader),
    repeatedBarcode: firstRowOf("Barcode"),
    valid: [],
    rejected: [],
    uploadedPosters: [],
  };
  const { presentKeys, total } = await readCsvImport(input, format, (row) => checkRow(check, row));
  const { valid, rejected, uploadedPosters } = check;
  return { valid, rejected, uploadedPosters, presentKeys, total };
}

/** Checks one data row: a valid row is kept to be written, any other with its reasons. */
function checkRow(check: RowCheck, { row: rowNumber, cells, reasons }: CsvImportRow) {
  const { format } = check;
  const serial = checkSerial(check, (cells.serial ?? "").trim(), rowNumber, reasons);

  const posterUrl = (cells.posterUrl ?? "").trim();
  const posterProblem = posterUrlProblem(posterUrl, check.kind);
  if (posterProblem) reasons.push(posterProblem);
  else if (uploadedPosterId(posterUrl)) {
    check.uploadedPosters.push({ row: rowNumber, serial, posterUrl });
  }

  const input = schemaInput(format.columns, cells);
  if ("disc" in input) input.disc = canonicalDisc(input.disc!);
  const parsed = format.schema.safeParse(input);
  if (!parsed.success) reasons.push(...issueReasons(parsed.error.issues, check.label));
  const barcode = checkBarcode(check, cells.barcode ?? "", rowNumber, reasons);

  if (reasons.length > 0) {
    check.rejected.push({ row: rowNumber, reasons });
  } else if (parsed.success) {
    check.valid.push({
      row: rowNumber,
      serial,
      values: { ...parsed.data, posterUrl: posterUrl || null },
      barcode,
    });
  }
}

/**
 * The row's serial, when it gives a usable one that no earlier row used; otherwise the reason
 * is added to `reasons`. Undefined for an empty serial (a new title).
 */
function checkSerial(
  check: RowCheck,
  serialText: string,
  rowNumber: number,
  reasons: string[],
): number | undefined {
  if (serialText === "") return undefined;
  const value = Number(serialText);
  if (!/^\d+$/.test(serialText) || value < 1 || value > MAX_SERIAL) {
    reasons.push(
      `${check.format.serialHeader} must be a whole number from 1 to ${MAX_SERIAL.toLocaleString("en-US")}, or empty for a new title.`,
    );
    return undefined;
  }
  const repeated = check.repeatedSerial(value, value, rowNumber);
  if (repeated) {
    reasons.push(repeated);
    return undefined;
  }
  return value;
}

/** The row's barcode as the title form reads it (null: none); a bad or repeated one is a reason. */
function checkBarcode(
  check: RowCheck,
  cell: string,
  rowNumber: number,
  reasons: string[],
): string | null {
  const parsed = barcodeField.safeParse(cell);
  if (!parsed.success) {
    reasons.push(...parsed.error.issues.map((issue) => `Barcode: ${issue.message}`));
    return null;
  }
  const repeated =
    parsed.data && check.repeatedBarcode(gtinOf(parsed.data), parsed.data, rowNumber);
  if (repeated) reasons.push(repeated);
  return parsed.data;
}

type PosterClaim = { row: number; serial: number | undefined; posterUrl: string };

/** Why each row naming an uploaded poster may not (by row number); only rows with a problem. */
async function uploadedPosterProblems(
  db: Runner,
  format: AnyFormat,
  claims: PosterClaim[],
): Promise<Map<number, string>> {
  const problems = new Map<number, string>();
  if (claims.length === 0) return problems;
  const values = [...new Set(claims.map((claim) => claim.posterUrl))];
  const { rows } = await db.execute<{ kind: string; serial: number; posterUrl: string }>(sql`
    select 'RegSerialNo' as kind, reg_serial_no as serial, poster_url as "posterUrl"
      from ${regularTitles} where poster_url = any(${sql.param(values)}::text[])
    union all
    select 'AdultSerialNo', adult_serial_no, poster_url
      from ${adultTitles} where poster_url = any(${sql.param(values)}::text[])
    union all
    select 'Coming Soon', id, poster_url
      from ${comingSoon} where poster_url = any(${sql.param(values)}::text[])`);
  const owners = new Map<string, { kind: string; serial: number }[]>();
  for (const row of rows) {
    owners.set(row.posterUrl, [...(owners.get(row.posterUrl) ?? []), row]);
  }
  const instead = "upload the poster in this title's form instead.";
  for (const claim of claims) {
    const found = owners.get(claim.posterUrl) ?? [];
    if (
      found.some((owner) => owner.kind === format.serialHeader && owner.serial === claim.serial)
    ) {
      continue;
    }
    const owner = found[0];
    problems.set(
      claim.row,
      owner
        ? `PosterURL: ${claim.posterUrl} is the poster of ${owner.kind === "Coming Soon" ? "a Coming Soon entry" : `${owner.kind} ${owner.serial}`}; ${instead}`
        : `PosterURL: no title has the poster ${claim.posterUrl}; ${instead}`,
    );
  }
  return problems;
}

/** The uploaded posters the titles with these serials show now. */
async function uploadedPostersOf(db: Runner, format: AnyFormat, serials: number[]) {
  if (serials.length === 0) return [];
  const posterColumn = (getTableColumns(format.table) as Record<string, PgColumn>).posterUrl!;
  const rows = await db
    .select({ posterUrl: posterColumn })
    .from(format.table as PgTable)
    .where(
      sql`${format.serialColumn} = any(${sql.param(serials)}::int[]) and ${posterColumn} like 'upload:%'`,
    );
  return rows.map((row) => row.posterUrl as string);
}

type Runner = Database | Transaction;

async function existingSerials(
  db: Runner,
  format: AnyFormat,
  serials: number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  if (serials.length === 0) return found;
  for (let i = 0; i < serials.length; i += 50_000) {
    const rows = await db
      .select({ serial: format.serialColumn })
      .from(format.table as PgTable)
      .where(inArray(format.serialColumn, serials.slice(i, i + 50_000)));
    for (const row of rows) found.add(row.serial as number);
  }
  return found;
}

type WrittenRow = ValidRow & { serial: number };

/**
 * Writes the checked rows, one statement per batch (`insertUnnested`), and answers them with
 * their serials, the new titles' included.
 */
async function writeRows(
  tx: Transaction,
  format: AnyFormat,
  rows: ValidRow[],
  updateKeys: string[],
): Promise<WrittenRow[]> {
  const columns = getTableColumns(format.table) as Record<string, PgColumn>;
  const valueKeys = format.columns
    .map((column) => column.key)
    .filter((key) => key !== "serial" && key in columns);
  const serial = format.serialColumn;

  const unnested = (batch: WrittenRow[]) =>
    insertUnnested(format.table, [
      { column: serial, values: batch.map((row) => row.serial) },
      ...valueKeys.map((key) => ({
        column: columns[key]!,
        values: batch.map((row) => row.values[key] ?? null),
      })),
    ]);

  // In ascending serial order, the order in which orders lock the titles they reserve stock
  // from (orders/stock.server.ts): the two wait for each other but never deadlock.
  const withSerial = rows
    .filter((row): row is WrittenRow => row.serial !== undefined)
    .sort((a, b) => a.serial - b.serial);
  // A title whose cells are all as stored is left alone; it still counts as updated in the report.
  const onConflict = updateChanged(
    format.table,
    serial,
    updateKeys.map((key) => columns[key]!),
    columns.updatedAt!,
  );
  for (let i = 0; i < withSerial.length; i += WRITE_BATCH) {
    await tx.execute(sql`${unnested(withSerial.slice(i, i + WRITE_BATCH))} ${onConflict}`);
  }
  // Serials given in the file may lie ahead of the identity sequence; the insert trigger moves
  // it past them (drizzle/0016_catalogue_serials.sql), so the serials drawn now are free.
  const withoutSerial = rows.filter((row) => row.serial === undefined);
  const drawn = await drawSerials(tx, format, withoutSerial.length);
  const added = withoutSerial.map((row, index) => ({ ...row, serial: drawn[index]! }));
  for (let i = 0; i < added.length; i += WRITE_BATCH) {
    await tx.execute(unnested(added.slice(i, i + WRITE_BATCH)));
  }
  return [...withSerial, ...added];
}

/**
 * The next `count` serials of the catalogue, in order, as its form's titles get them: drawn
 * under the lock every insert takes before it draws one (drizzle/0016_catalogue_serials.sql).
 * Drawn here rather than by the insert, so each new title's barcode knows its serial.
 */
async function drawSerials(tx: Transaction, format: AnyFormat, count: number): Promise<number[]> {
  if (count === 0) return [];
  const table = getTableName(format.table);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${table}.serial`}))`);
  const { rows } = await tx.execute<{ serial: number }>(sql`
    select nextval(pg_get_serial_sequence(${table}, ${format.serialColumn.name}))::int as serial
      from generate_series(1, ${count}::int)`);
  return rows.map((row) => row.serial).sort((a, b) => a - b);
}
