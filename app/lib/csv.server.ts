import { pipeline, Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { stringify } from "csv-stringify/sync";
import type { z } from "zod";
import { reply } from "./reply.server.ts";
import { readFormWithFiles } from "./request.server.ts";

// Spreadsheets run a cell that starts with = + - @ (or a tab or carriage return before one) as a
// formula, so a name typed by a customer or a catalogue cell could fetch a URL or run a command
// on the machine of whoever opens an export. OWASP's advice: prefix such cells with a quote.
// Cells that already start with quotes before such a character get one more, so the import can
// take exactly one away and every export reads back to what was stored.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;

export type CsvCell = string | number | null | undefined;

/** A cell as a spreadsheet may safely open it. */
export function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The exact inverse of `neutraliseFormula`, for cells read back from an export. */
export function restoreFormula(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

/** The one way exports write CSV: rows of cells, every text cell neutralised. */
export function csvRows(rows: CsvCell[][], options: { bom?: boolean } = {}): string {
  return stringify(
    rows.map((row) =>
      row.map((cell) => (typeof cell === "string" ? neutraliseFormula(cell) : cell)),
    ),
    { bom: options.bom ?? false },
  );
}

// ---------------------------------------------------------------------------------------------
// Import: what every CSV import of the back office shares (the catalogues', the store items'):
// columns matched by name, the file's limits, formulas restored, rows checked by the form's own
// schema, and one report for a dry run and an import alike.

/** A column of an import file: its header as the export writes it, and the field it feeds. */
export type CsvColumn = { header: string; key: string };

/** `row` is the row number a spreadsheet shows: the header is row 1. */
export type CsvRejectedRow = { row: number; reasons: string[] };

export type CsvImportReport = {
  dryRun: boolean;
  /** True only when the import committed; a dry run or a file with a rejected row writes nothing. */
  written: boolean;
  /** Data rows read (blank lines not counted). */
  total: number;
  added: number;
  updated: number;
  rejected: CsvRejectedRow[];
};

/** A problem with the file as a whole (header, size, broken CSV); nothing was written. */
export class CsvImportError extends Error {
  override name = "CsvImportError";
}

export const MAX_IMPORT_ROWS = 200_000;

/** A file as uploaded: its text, or a stream of its bytes. */
export type CsvImportInput = string | AsyncIterable<string | Uint8Array>;

export type CsvImportFormat = {
  columns: readonly CsvColumn[];
  /** The keys whose columns a file must have; the others keep their values where left out. */
  required: ReadonlySet<string>;
  /** Said after the list of columns when the header has unknown ones: whose file it looks like. */
  hint?: (header: string[]) => string;
};

/** A data row as read: its cells by key, formulas restored, and what is wrong with its shape. */
export type CsvImportRow = { row: number; cells: Record<string, string>; reasons: string[] };

const normalizeHeader = (header: string) => header.trim().replace(/\s+/g, " ").toLowerCase();

/** Whether a header cell names the column `header` (case and spacing aside). */
export function namesColumn(cell: string, header: string): boolean {
  return normalizeHeader(cell) === normalizeHeader(header);
}

/** Which key each cell of a record feeds, from the header row; throws on a bad header. */
function mapHeader(format: CsvImportFormat, header: string[]): (string | undefined)[] {
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
      throw new CsvImportError(`The column ${column.header} appears more than once.`);
    }
    seen.add(column.key);
    return column.key;
  });
  if (unknown.length > 0) {
    throw new CsvImportError(
      `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}. The columns are: ${expected}.${format.hint?.(header) ?? ""}`,
    );
  }
  const missing = format.columns.filter(
    (column) => !seen.has(column.key) && format.required.has(column.key),
  );
  if (missing.length > 0) {
    throw new CsvImportError(
      `Missing column${missing.length > 1 ? "s" : ""} ${missing.map((column) => column.header).join(", ")}. The columns are: ${expected}.`,
    );
  }
  return keys;
}

function toReadable(input: CsvImportInput): Readable {
  return input instanceof Readable ? input : Readable.from(input);
}

/**
 * Reads an import file and hands each data row to `onRow`, in order; a problem with the file as
 * a whole (unknown or missing columns, more than 200,000 rows, broken quoting, no header) throws
 * a `CsvImportError` with a message for the person who uploaded it. Accepts a byte order mark,
 * quoted commas and line breaks, and cells an export neutralised (read back as they were stored).
 */
export async function readCsvImport(
  input: CsvImportInput,
  format: CsvImportFormat,
  onRow: (row: CsvImportRow) => void,
): Promise<{ presentKeys: string[]; total: number }> {
  const parser = parse({ bom: true, relax_column_count: true, max_record_size: 1_000_000 });
  // pipeline, not pipe: a failing source (an unreadable file, a dropped upload) must fail the
  // loop below instead of leaving it waiting, and stopping early must close the source.
  pipeline(toReadable(input), parser, () => {});

  let keys: (string | undefined)[] | undefined;
  let rowNumber = 0;
  let total = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNumber++;
      if (!keys) {
        keys = mapHeader(format, record);
        continue;
      }
      if (record.every((cell) => cell.trim() === "")) continue; // a blank line
      total++;
      if (total > MAX_IMPORT_ROWS) {
        throw new CsvImportError(
          `The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows. Split it into smaller files.`,
        );
      }
      const reasons: string[] = [];
      if (record.length > keys.length && record.slice(keys.length).some((cell) => cell !== "")) {
        reasons.push(`The row has ${record.length} cells but the header has ${keys.length}.`);
      }
      const cells: Record<string, string> = {};
      keys.forEach((key, index) => {
        if (key) cells[key] = restoreFormula(record[index] ?? "");
      });
      onRow({ row: rowNumber, cells, reasons });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof CsvError) {
      throw new CsvImportError(
        `The file is not valid CSV near line ${error.lines ?? "?"}: ${error.message}`,
      );
    }
    throw error;
  }
  if (!keys) {
    throw new CsvImportError(
      `The file is empty. The first row must name the columns: ${format.columns.map((column) => column.header).join(", ")}.`,
    );
  }
  return { presentKeys: keys.filter((key): key is string => key !== undefined), total };
}

/** The input a form's schema gets from a row: every column's cell, blank where the file has none. */
export function schemaInput(
  columns: readonly CsvColumn[],
  cells: Record<string, string>,
): Record<string, string> {
  const input: Record<string, string> = {};
  for (const column of columns) input[column.key] = cells[column.key] ?? "";
  return input;
}

/** The keys a schema refuses blank, read from the schema itself: a file must have their columns. */
export function keysRequiredBy(
  columns: readonly CsvColumn[],
  schema: z.ZodType<unknown, Record<string, string>>,
): Set<string> {
  const result = schema.safeParse(schemaInput(columns, {}));
  return new Set(result.error?.issues.map((issue) => String(issue.path[0])) ?? []);
}

/** Each key's column header, to name the column a problem is in. */
export function columnLabels(columns: readonly CsvColumn[]): Record<string, string> {
  return Object.fromEntries(columns.map((column) => [column.key, column.header]));
}

/** A schema's issues as a row's reasons, each naming its column unless its message does. */
export function issueReasons(
  issues: readonly z.core.$ZodIssue[],
  labels: Record<string, string>,
): string[] {
  return issues.map((issue) => {
    const column = labels[String(issue.path[0])] ?? "";
    return column && !issue.message.includes(column)
      ? `${column}: ${issue.message}`
      : issue.message;
  });
}

/**
 * Refuses a value an earlier row of the file has already ("SKU POS-1 is already used by row 2."):
 * call it with each row's value (`key` as compared, `shown` as the row has it); it answers the
 * reason, or undefined for a value seen first.
 */
export function firstRowOf(header: string) {
  const rows = new Map<string | number, number>();
  return (key: string | number, shown: string | number, row: number): string | undefined => {
    const first = rows.get(key);
    if (first !== undefined) return `${header} ${shown} is already used by row ${first}.`;
    rows.set(key, row);
    return undefined;
  };
}

/**
 * Adds each row's problem to its reasons, moving the valid rows that have one among the rejected
 * (kept in row order).
 */
export function refuseRows<Row extends { row: number }>(
  valid: Row[],
  rejected: CsvRejectedRow[],
  problems: Map<number, string>,
) {
  if (problems.size === 0) return;
  for (const entry of rejected) {
    const problem = problems.get(entry.row);
    if (problem) entry.reasons.push(problem);
  }
  const refused = valid.filter((row) => problems.has(row.row));
  for (const row of refused) rejected.push({ row: row.row, reasons: [problems.get(row.row)!] });
  valid.splice(0, valid.length, ...valid.filter((row) => !problems.has(row.row)));
  rejected.sort((a, b) => a.row - b.row);
}

/** What a report says in one sentence. */
export function importSummary(report: CsvImportReport): string {
  if (report.written) return `Imported: ${report.added} added, ${report.updated} updated.`;
  if (report.rejected.length > 0) {
    return `Nothing was written: ${report.rejected.length} of ${report.total} rows need fixing.`;
  }
  return `Dry run: ${report.added} would be added, ${report.updated} updated, 0 rejected.`;
}

/**
 * An import page's action, once its guard has passed: the uploaded file (`file`) checked, or
 * imported when the button pressed was Import (`intent=import`), answered with its report.
 */
export async function answerCsvImport(
  request: Request,
  run: (file: CsvImportInput, options: { dryRun: boolean }) => Promise<CsvImportReport>,
) {
  const { fields, files } = await readFormWithFiles(request);
  const file = files.file;
  if (!file) return reply.refused("invalid", "Choose a CSV file.");
  try {
    const report = await run(file.stream(), { dryRun: fields.intent !== "import" });
    // Rows that need fixing refuse the whole file: nothing is written until every row is right.
    return report.rejected.length
      ? reply.refused("invalid", importSummary(report), { report })
      : reply.ok(importSummary(report), { report });
  } catch (error) {
    if (!(error instanceof CsvImportError)) throw error;
    return reply.refused("invalid", error.message);
  }
}
