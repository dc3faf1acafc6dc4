import { pipeline, Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { asc, getTableColumns, gt, inArray, sql } from "drizzle-orm";
import { PgTransaction, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { adultTitles, comingSoon, regularTitles } from "#app/db/schema.ts";
import { nameStockMove } from "#app/domain/stock/ledger.server.ts";
import { releaseUploadedPosters } from "#app/domain/posters/upload.server.ts";
import { DISCS } from "#app/lib/catalog.ts";
import { csvRows, restoreFormula, type CsvCell } from "#app/lib/csv.server.ts";
import { isAdultPosterId, uploadedPosterId } from "#app/lib/uploaded-posters.ts";
import { adultTitleSchema, regularTitleSchema } from "./title-input.ts";

// CSV import and export of the two catalogues, in the column names of the shop's old data
// (spec §2 of DESIGN.md), so the owner can bring the existing catalogue over and edit it in a
// spreadsheet. Rows are validated by the same zod schemas as the admin forms.

export type CatalogKind = "regular" | "adult";

export type CatalogImportReport = {
  kind: CatalogKind;
  dryRun: boolean;
  /** True only when the import committed; a dry run or a file with a rejected row writes nothing. */
  written: boolean;
  /** Data rows read (blank lines not counted). */
  total: number;
  added: number;
  updated: number;
  /** `row` is the row number a spreadsheet shows: the header is row 1. */
  rejected: { row: number; reasons: string[] }[];
};

/** A problem with the file as a whole (header, size, broken CSV); nothing was written. */
export class CatalogCsvError extends Error {
  override name = "CatalogCsvError";
}

export const MAX_IMPORT_ROWS = 200_000;
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

type Format<Row, Values> = {
  table: Table;
  serialColumn: PgColumn;
  serialHeader: string;
  otherSerialHeader: string;
  /** The spec's column names in the spec's order, each with the schema key it feeds. */
  columns: readonly { header: string; key: string }[];
  schema: z.ZodType<Values, Record<string, string>>;
  serialOf: (row: Row) => number;
  exportCells: (row: Row) => CsvCell[];
};

const dollars = (cents: number) =>
  `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

const regularFormat: Format<
  typeof regularTitles.$inferSelect,
  z.output<typeof regularTitleSchema>
> = {
  table: regularTitles,
  serialColumn: regularTitles.regSerialNo,
  serialHeader: "RegSerialNo",
  otherSerialHeader: "AdultSerialNo",
  columns: [
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
  ],
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
  ],
};

const adultFormat: Format<typeof adultTitles.$inferSelect, z.output<typeof adultTitleSchema>> = {
  table: adultTitles,
  serialColumn: adultTitles.adultSerialNo,
  serialHeader: "AdultSerialNo",
  otherSerialHeader: "RegSerialNo",
  columns: [
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
  ],
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
      .select()
      .from(format.table)
      .where(gt(format.serialColumn, after))
      .orderBy(asc(format.serialColumn))
      .limit(EXPORT_PAGE)) as Record<string, unknown>[];
    if (rows.length === 0) return;
    yield csvRows(rows.map(format.exportCells));
    if (rows.length < EXPORT_PAGE) return;
    after = format.serialOf(rows.at(-1)!);
  }
}

// ---------------------------------------------------------------------------------------------
// Import

type ValidRow = { row: number; serial: number | undefined; values: Record<string, unknown> };

const normalizeHeader = (header: string) => header.trim().replace(/\s+/g, " ").toLowerCase();

/** Which schema key each cell of a record feeds, from the header row; throws on a bad header. */
function mapHeader(format: AnyFormat, header: string[]): (string | undefined)[] {
  const expected = format.columns.map((column) => column.header).join(", ");
  const byName = new Map(format.columns.map((column) => [normalizeHeader(column.header), column]));
  const seen = new Set<string>();
  const unknown: string[] = [];
  const keys = header.map((name) => {
    const normalized = normalizeHeader(name);
    if (normalized === "") return undefined; // a trailing comma of a spreadsheet export
    const column = byName.get(normalized);
    if (!column) {
      unknown.push(`"${name.trim()}"`);
      return undefined;
    }
    if (seen.has(column.key)) {
      throw new CatalogCsvError(`The column ${column.header} appears more than once.`);
    }
    seen.add(column.key);
    return column.key;
  });
  if (unknown.length > 0) {
    const hint = header.some(
      (name) => normalizeHeader(name) === normalizeHeader(format.otherSerialHeader),
    )
      ? ` This looks like the ${format.otherSerialHeader === "AdultSerialNo" ? "adult" : "regular"} catalogue's file.`
      : "";
    throw new CatalogCsvError(
      `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}. The columns are: ${expected}.${hint}`,
    );
  }
  // Required: what the schema cannot do without. Optional columns left out of the file keep
  // their current values on titles that are updated.
  const missing = format.columns.filter(
    (column) => !seen.has(column.key) && requiredKeys(format).has(column.key),
  );
  if (missing.length > 0) {
    throw new CatalogCsvError(
      `Missing column${missing.length > 1 ? "s" : ""} ${missing.map((column) => column.header).join(", ")}. The columns are: ${expected}.`,
    );
  }
  return keys;
}

/** The schema keys that cannot be blank, read from the schema itself. */
function requiredKeys(format: AnyFormat): Set<string> {
  const result = format.schema.safeParse(blankInput(format));
  return new Set(result.error?.issues.map((issue) => String(issue.path[0])) ?? []);
}

function blankInput(format: AnyFormat, overrides: Record<string, string> = {}) {
  const input: Record<string, string> = {};
  for (const column of format.columns) input[column.key] = "";
  return { ...input, ...overrides };
}

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

function toReadable(input: string | AsyncIterable<string | Uint8Array>): Readable {
  return input instanceof Readable ? input : Readable.from(input);
}

/**
 * Checks a catalogue CSV row by row and, unless it is a dry run, writes it: every row or none.
 *
 * A row with an empty serial becomes a new title (the database assigns its serial); a row whose
 * serial exists updates that title; a new serial is inserted as given. Rejected rows come back
 * with their row number and reasons, and then nothing is written (`written: false`). Problems
 * with the file as a whole (unknown or missing columns, more than 200,000 rows, broken quoting)
 * throw a `CatalogCsvError` with a message for the person who uploaded it.
 *
 * The checked rows are kept in memory until they are written (a few hundred bytes per title):
 * callers should limit the size of an upload.
 */
export async function importCatalogCsv(
  db: Database | Transaction,
  kind: CatalogKind,
  input: string | AsyncIterable<string | Uint8Array>,
  options: { dryRun: boolean },
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
  if (posterProblems.size > 0) refuseRows(valid, rejected, posterProblems);

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
  const updateKeys = presentKeys.filter((key) => key !== "serial");
  const written = await db.transaction(async (tx) => {
    await nameStockMove(tx, { reason: "import", reference: "CSV import" });
    const existing = await existingSerials(tx, format, serials);
    const replaced = updateKeys.includes("posterUrl")
      ? await uploadedPostersOf(tx, format, serials)
      : [];
    await writeRows(tx, format, valid, updateKeys);
    return { report: report(existing, true), replaced };
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
  firstRowOfSerial: Map<number, number>;
  checked: CheckedRows;
};

/** Reads the file and checks each of its rows; a problem with the file as a whole throws. */
async function checkRows(
  format: AnyFormat,
  kind: CatalogKind,
  input: string | AsyncIterable<string | Uint8Array>,
): Promise<CheckedRows> {
  const parser = parse({ bom: true, relax_column_count: true, max_record_size: 1_000_000 });
  // pipeline, not pipe: a failing source (an unreadable file, a dropped upload) must fail the
  // loop below instead of leaving it waiting, and stopping early must close the source.
  pipeline(toReadable(input), parser, () => {});

  const check: RowCheck = {
    format,
    kind,
    label: Object.fromEntries(format.columns.map((column) => [column.key, column.header])),
    firstRowOfSerial: new Map(),
    checked: { valid: [], rejected: [], uploadedPosters: [], presentKeys: [], total: 0 },
  };
  let keys: (string | undefined)[] | undefined;
  let rowNumber = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNumber++;
      if (!keys) {
        keys = mapHeader(format, record);
        check.checked.presentKeys = keys.filter((key): key is string => key !== undefined);
        continue;
      }
      if (record.every((cell) => cell.trim() === "")) continue; // a blank line
      check.checked.total++;
      if (check.checked.total > MAX_IMPORT_ROWS) {
        throw new CatalogCsvError(
          `The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows. Split it into smaller files.`,
        );
      }
      checkRow(check, keys, record, rowNumber);
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof CsvError) {
      throw new CatalogCsvError(
        `The file is not valid CSV near line ${error.lines ?? "?"}: ${error.message}`,
      );
    }
    throw error;
  }
  if (!keys) {
    throw new CatalogCsvError(
      `The file is empty. The first row must name the columns: ${catalogCsvColumns(kind).join(", ")}.`,
    );
  }
  return check.checked;
}

/** Checks one data row: a valid row is kept to be written, any other with its reasons. */
function checkRow(
  check: RowCheck,
  keys: (string | undefined)[],
  record: string[],
  rowNumber: number,
) {
  const { format, checked } = check;
  const reasons: string[] = [];
  if (record.length > keys.length && record.slice(keys.length).some((cell) => cell !== "")) {
    reasons.push(`The row has ${record.length} cells but the header has ${keys.length}.`);
  }
  const cells: Record<string, string> = {};
  keys.forEach((key, index) => {
    // Cells the export neutralised (a leading quote) read back as they were stored.
    if (key) cells[key] = restoreFormula(record[index] ?? "");
  });

  const serial = checkSerial(check, (cells.serial ?? "").trim(), rowNumber, reasons);

  const posterUrl = (cells.posterUrl ?? "").trim();
  const posterProblem = posterUrlProblem(posterUrl, check.kind);
  if (posterProblem) reasons.push(posterProblem);
  else if (uploadedPosterId(posterUrl)) {
    checked.uploadedPosters.push({ row: rowNumber, serial, posterUrl });
  }

  const schemaInput = blankInput(format, cells);
  if ("disc" in schemaInput) schemaInput.disc = canonicalDisc(schemaInput.disc!);
  const parsed = format.schema.safeParse(schemaInput);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const column = check.label[String(issue.path[0])] ?? "";
      reasons.push(
        column && !issue.message.includes(column) ? `${column}: ${issue.message}` : issue.message,
      );
    }
  }

  if (reasons.length > 0) {
    checked.rejected.push({ row: rowNumber, reasons });
  } else if (parsed.success) {
    checked.valid.push({
      row: rowNumber,
      serial,
      values: { ...parsed.data, posterUrl: posterUrl || null },
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
  if (check.firstRowOfSerial.has(value)) {
    reasons.push(
      `${check.format.serialHeader} ${value} is already used by row ${check.firstRowOfSerial.get(value)}.`,
    );
    return undefined;
  }
  check.firstRowOfSerial.set(value, rowNumber);
  return value;
}

/**
 * Adds each row's problem to its reasons, moving the valid rows that have one among the
 * rejected (kept in row order).
 */
function refuseRows(
  valid: ValidRow[],
  rejected: CatalogImportReport["rejected"],
  problems: Map<number, string>,
) {
  for (const entry of rejected) {
    const problem = problems.get(entry.row);
    if (problem) entry.reasons.push(problem);
  }
  const refused = valid.filter((row) => problems.has(row.row));
  for (const row of refused) rejected.push({ row: row.row, reasons: [problems.get(row.row)!] });
  valid.splice(0, valid.length, ...valid.filter((row) => !problems.has(row.row)));
  rejected.sort((a, b) => a.row - b.row);
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

/**
 * Writes the checked rows: one statement per batch, each column sent as one array parameter
 * and unpacked with unnest(). Building a VALUES list with a parameter per cell instead costs
 * about 60 µs per row in the query builder alone (6 s of 100,000 rows).
 */
async function writeRows(tx: Runner, format: AnyFormat, rows: ValidRow[], updateKeys: string[]) {
  const columns = getTableColumns(format.table) as Record<string, PgColumn>;
  const valueKeys = format.columns
    .map((column) => column.key)
    .filter((key) => key !== "serial" && key in columns);
  const serial = format.serialColumn;

  const unnested = (batch: ValidRow[], withSerial: boolean) => {
    const arrays = valueKeys.map((key) => ({
      column: columns[key]!,
      values: batch.map((row) => row.values[key] ?? null),
    }));
    if (withSerial) arrays.unshift({ column: serial, values: batch.map((row) => row.serial!) });
    return sql`insert into ${format.table} (${sql.join(
      arrays.map(({ column }) => sql.identifier(column.name)),
      sql`, `,
    )}) select * from unnest(${sql.join(
      arrays.map(
        ({ column, values }) => sql`${sql.param(values)}::${sql.raw(column.getSQLType())}[]`,
      ),
      sql`, `,
    )})`;
  };

  // In ascending serial order, the order in which orders lock the titles they reserve stock
  // from (orders/stock.server.ts): the two wait for each other but never deadlock.
  const withSerial = rows
    .filter((row) => row.serial !== undefined)
    .sort((a, b) => a.serial! - b.serial!);
  // A title whose cells are all as stored is left alone (no new row version, no index churn,
  // its updated_at keeps saying when it last changed); it still counts as updated in the report.
  const updated = updateKeys.map((key) => sql.identifier(columns[key]!.name));
  const onConflict = sql`on conflict (${sql.identifier(serial.name)}) do update set ${sql.join(
    [
      ...updated.map((name) => sql`${name} = excluded.${name}`),
      sql`${sql.identifier(columns.updatedAt!.name)} = now()`,
    ],
    sql`, `,
  )} where (${sql.join(
    updated.map((name) => sql`${format.table}.${name}`),
    sql`, `,
  )}) is distinct from (${sql.join(
    updated.map((name) => sql`excluded.${name}`),
    sql`, `,
  )})`;
  for (let i = 0; i < withSerial.length; i += WRITE_BATCH) {
    await tx.execute(sql`${unnested(withSerial.slice(i, i + WRITE_BATCH), true)} ${onConflict}`);
  }
  // Serials given in the file may lie ahead of the identity sequence; the insert trigger moves
  // it past them (drizzle/0016_catalogue_serials.sql), so the rows below get free serials.
  const withoutSerial = rows.filter((row) => row.serial === undefined);
  for (let i = 0; i < withoutSerial.length; i += WRITE_BATCH) {
    await tx.execute(unnested(withoutSerial.slice(i, i + WRITE_BATCH), false));
  }
}
