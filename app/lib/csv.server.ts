import { stringify } from "csv-stringify/sync";

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
