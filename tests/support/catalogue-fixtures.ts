import { regularTitleSchema } from "#app/domain/catalog/title-input.ts";

/**
 * The regular catalogue's CSV header in the spec's columns, as the owner's old files have it: the
 * back office's export adds an optional Barcode column after them.
 */
export const REGULAR_CSV_HEADER =
  "RegSerialNo,ProductID,QtyToList,Title,Release Year,Disc,Type,CurrentPrice,Description,Genres,Director,Cast,PosterURL";

/** A row of that CSV: one DVD at $4.99 under `productId`, with a poster's URL where given. */
export function regularCsvRow(
  productId: string,
  serial: number | "",
  title: string,
  posterUrl = "",
) {
  return `${serial},${productId},1,${title},,DVD,,4.99,,,,,${posterUrl}`;
}

/** A regular title as the back office's form gives it: one DVD at $4.99 under `productId`. */
export function regularTitleForm(productId: string, title: string) {
  return regularTitleSchema.parse({
    productId,
    qtyToList: "1",
    title,
    releaseYear: "",
    disc: "DVD",
    type: "",
    currentPriceCents: "4.99",
    description: "",
    genres: "",
    director: "",
    cast: "",
  });
}
