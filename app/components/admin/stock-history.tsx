import { SidewaysScroll } from "#app/components/ui/sideways-scroll.tsx";
import { STOCK_REASON_LABELS, type StockReason } from "#app/domain/stock/status.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";

export type StockHistoryRow = {
  id: number;
  change: number;
  stockAfter: number;
  reason: StockReason;
  reference: string | null;
  actorName: string | null;
  createdAt: string | Date;
};

/**
 * The table's name, and the scroll region's while it scrolls on a phone: it must differ from the
 * section's heading, or the page has two landmarks of the same name.
 */
const CAPTION = "Stock history, newest first";

/** A product's stock ledger, newest first: every change, why, and who made it. */
export function StockHistory({ moves, timeZone }: { moves: StockHistoryRow[]; timeZone: string }) {
  return (
    <section aria-labelledby="stock-history" className="mt-10">
      <h2 id="stock-history" className="text-xl font-semibold">
        Stock history
      </h2>
      {moves.length === 0 ? (
        <p className="mt-2 text-muted-foreground">No stock has been added or sold yet.</p>
      ) : (
        <SidewaysScroll label={CAPTION} className="mt-3 rounded-xl border">
          <table className="w-full text-sm">
            <caption className="sr-only">{CAPTION}</caption>
            <thead>
              <tr className="border-b text-left">
                <th scope="col" className="px-3 py-2 font-medium">
                  When
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  What
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Change
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  In stock after
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  By
                </th>
              </tr>
            </thead>
            <tbody>
              {moves.map((move) => (
                <tr key={move.id} className="border-b last:border-0">
                  <td className="px-3 py-1.5 whitespace-nowrap">
                    {formatShopDateTime(new Date(move.createdAt), timeZone)}
                  </td>
                  <td className="px-3 py-1.5">
                    {STOCK_REASON_LABELS[move.reason]}
                    {move.reference ? ` (${move.reference})` : null}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">
                    {move.change > 0 ? `+${move.change}` : move.change}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{move.stockAfter}</td>
                  <td className="px-3 py-1.5">{move.actorName ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </SidewaysScroll>
      )}
    </section>
  );
}
