import type { Locator, Page } from "@playwright/test";

type CsvFile = { name: string; mimeType: string; buffer: Buffer };

/** A CSV file as a spreadsheet saves it (a byte order mark, the header, a row a line). */
export function csvFile(name: string, header: string, rows: string[]): CsvFile {
  return {
    name,
    mimeType: "text/csv",
    buffer: Buffer.from(`\uFEFF${header}\n${rows.join("\n")}\n`),
  };
}

/** On a back-office import page: chooses the file and checks it (a dry run); the report. */
export async function checkCsvFile(page: Page, file: CsvFile | string): Promise<Locator> {
  await page.getByLabel("CSV file").setInputFiles(file);
  await page.getByRole("button", { name: "Check file (dry run)" }).click();
  return page.getByRole("region", { name: "Import report" });
}

/** The row number the report gives the rejected row whose reasons say `reason`. */
export function rejectedRowNumber(report: Locator, reason: string): Locator {
  return report.getByRole("row").filter({ hasText: reason }).getByRole("cell").first();
}
