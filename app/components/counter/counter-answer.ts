import type { Answer } from "#app/lib/answer.ts";
import type { StockProduct } from "#app/domain/stock/status.ts";

/** A product the counter found for words typed in the scan field, for the clerk to choose. */
export type FoundProduct = {
  type: StockProduct;
  id: number;
  name: string;
  detail: string;
  priceCents: number;
  stock: number;
};

/** What the counter's actions answer: the shop's one shape, with products found for a search. */
export type CounterAnswer = Answer & { results?: FoundProduct[] };

/** Beside "Scan with the camera" when its dialog or reader could not be fetched or started. */
export const READER_FAILED =
  "The barcode reader could not load: reload the page and try again, or use the scanner.";

/** The scan field's id: every line added, changed or removed puts focus back in it. */
export const SCAN_FIELD_ID = "counter-scan";

/**
 * Puts focus back in the scan field once the page has drawn the answer. A field that has it
 * already is left alone: a scanner may be typing the next code into it, and selecting its text
 * would let the next digits replace the first.
 */
export function focusScanField() {
  window.setTimeout(() => {
    const field = document.getElementById(SCAN_FIELD_ID);
    if (field instanceof HTMLInputElement && document.activeElement !== field) {
      field.focus();
      field.select();
    }
  });
}
