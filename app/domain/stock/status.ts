// Why a product's stock changed: the vocabulary of the stock ledger (`stock_moves`, decision 023).
// The database writes the ledger; the transaction that changes stock names the reason
// (`nameStockMove` in ledger.server.ts), or the change is an adjustment (a new product's first
// stock is "added").

export const STOCK_REASONS = [
  "added",
  "adjustment",
  "import",
  "web_sale",
  "released",
  "cancelled",
  "returned",
  "counter_sale",
  "counter_unpaid",
  "counter_return",
] as const;

export type StockReason = (typeof STOCK_REASONS)[number];

/** How the back office names each reason in a product's ledger. */
export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  added: "Added to the catalogue",
  adjustment: "Changed in the back office",
  import: "CSV import",
  web_sale: "Web order",
  released: "Unpaid order released",
  cancelled: "Order cancelled",
  returned: "Return received",
  counter_sale: "Counter sale",
  counter_unpaid: "Counter card not paid",
  counter_return: "Counter return",
};

/** What a ledger row is about: a title of either catalogue, or a store item. */
export type StockProduct = "regular" | "adult" | "item";
