import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { regularTitles } from "#app/db/schema.ts";
import { processPosterUpload } from "#app/domain/posters/upload.server.ts";
import {
  REGULAR_CSV_HEADER,
  regularCsvRow,
  regularTitleForm,
} from "#tests/support/catalogue-fixtures.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { servedStatus } from "#tests/support/uploaded-posters.ts";
import { addRegularTitle, deleteRegularTitle } from "./admin-titles.server.ts";
import { importCatalogCsv } from "./catalog-csv.server.ts";
import { saveRegularTitle } from "./title-forms.server.ts";

// Titles are added and deleted for real, with their files under the test run's DATA_DIR
// (tests/support/database-setup.ts).
const scratch = scratchDatabase();
let db: Database;
let jpeg: Buffer;

beforeAll(async () => {
  db = scratch.db();
  jpeg = await sharp({ create: { width: 200, height: 300, channels: 3, background: "#335577" } })
    .jpeg()
    .toBuffer();
});

const row = (serial: number | "", title: string, poster: string) =>
  regularCsvRow("TP-1", serial, title, poster);
const values = (title: string) => regularTitleForm("TP-1", title);

async function upload(): Promise<string> {
  const result = await processPosterUpload(jpeg, "poster.jpg", { kind: "regular" });
  if (!result.ok) throw new Error(result.message);
  return result.posterUrl;
}

async function posterOf(serial: number) {
  const [title] = await db
    .select({ posterUrl: regularTitles.posterUrl })
    .from(regularTitles)
    .where(eq(regularTitles.regSerialNo, serial));
  return title?.posterUrl;
}

describe("uploaded posters of titles", () => {
  it("go when their title is deleted, and are kept while another title still shows them", async () => {
    const poster = await upload();
    const only = await addRegularTitle(db, { ...values("Lone Poster"), posterUrl: poster });
    expect(await servedStatus(poster)).toBe(200);
    expect(await deleteRegularTitle(db, only)).toBe(true);
    expect(await servedStatus(poster)).toBe(404);

    // Two titles showing the same files (as an import could make them before).
    const shared = await upload();
    const first = await addRegularTitle(db, { ...values("Shared One"), posterUrl: shared });
    const second = await addRegularTitle(db, { ...values("Shared Two"), posterUrl: shared });
    expect(await deleteRegularTitle(db, first)).toBe(true);
    expect(await servedStatus(shared)).toBe(200);
    // Replacing it on the other title removes it only then.
    const replacement = new File([new Uint8Array(jpeg)], "new.jpg", { type: "image/jpeg" });
    const saved = await saveRegularTitle(
      db,
      {
        fields: {
          productId: "TP-1",
          qtyToList: "1",
          title: "Shared Two",
          disc: "DVD",
          currentPriceCents: "4.99",
        },
        files: { poster: replacement },
      },
      { serialNo: second, staff: null },
    );
    expect(saved.ok).toBe(true);
    expect(await servedStatus(shared)).toBe(404);
    expect(await servedStatus((await posterOf(second))!)).toBe(200);
  });

  it("named by an import must be the poster of that same title; others are refused in the dry run", async () => {
    const poster = await upload();
    const owner = await addRegularTitle(db, { ...values("Poster Owner"), posterUrl: poster });
    const other = await addRegularTitle(db, { ...values("Poster Borrower"), posterUrl: null });
    const stray = `upload:${"e".repeat(32)}`;
    const csv = [
      REGULAR_CSV_HEADER,
      row(owner, "Poster Owner", poster),
      row(other, "Poster Borrower", poster),
      row("", "New Borrower", poster),
      row("", "Stray", stray),
    ].join("\n");
    const report = await importCatalogCsv(db, "regular", csv, { dryRun: true });
    expect(report.rejected).toEqual([
      {
        row: 3,
        reasons: [
          `PosterURL: ${poster} is the poster of RegSerialNo ${owner}; upload the poster in this title's form instead.`,
        ],
      },
      {
        row: 4,
        reasons: [
          `PosterURL: ${poster} is the poster of RegSerialNo ${owner}; upload the poster in this title's form instead.`,
        ],
      },
      {
        row: 5,
        reasons: [
          `PosterURL: no title has the poster ${stray}; upload the poster in this title's form instead.`,
        ],
      },
    ]);

    // An import that drops the poster from its title removes the files once it is written.
    const dropped = await importCatalogCsv(
      db,
      "regular",
      [REGULAR_CSV_HEADER, row(owner, "Poster Owner", "")].join("\n"),
      { dryRun: false },
    );
    expect(dropped).toMatchObject({ updated: 1, written: true });
    expect(await posterOf(owner)).toBeNull();
    expect(await servedStatus(poster)).toBe(404);
  });
});
