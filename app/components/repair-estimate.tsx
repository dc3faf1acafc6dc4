import { formatUsd } from "#app/lib/money.ts";

export type EstimateShown = {
  version: number;
  lines: {
    id: number;
    kind: "labour" | "part";
    description: string;
    quantity: number;
    unitCents: number;
  }[];
  subtotalCents: number;
  taxRate: string;
  taxCents: number;
  totalCents: number;
};

/** "0.0825" as "8.25%". */
function percent(rate: string) {
  return `${(Number(rate) * 100).toLocaleString("en-US", { maximumFractionDigits: 3 })}%`;
}

/** An estimate's lines and totals, the same for staff and for the customer. */
export function EstimateTable({ estimate }: { estimate: EstimateShown }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Estimate {estimate.version}: lines and total</caption>
        <thead>
          <tr className="border-b text-left">
            <th scope="col" className="py-1 pr-3 font-medium">
              Item
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Qty
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Unit price
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {estimate.lines.map((line) => (
            <tr key={line.id} className="border-b">
              <td className="py-1 pr-3">
                {line.description}
                <span className="ml-2 text-xs text-muted-foreground">
                  {line.kind === "labour" ? "Labour" : "Part"}
                </span>
              </td>
              <td className="py-1 pr-3 text-right tabular-nums">{line.quantity}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{formatUsd(line.unitCents)}</td>
              <td className="py-1 text-right tabular-nums">
                {formatUsd(line.unitCents * line.quantity)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3} className="py-1 pr-3 text-right font-normal">
              Subtotal
            </th>
            <td className="py-1 text-right tabular-nums">{formatUsd(estimate.subtotalCents)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3} className="py-1 pr-3 text-right font-normal">
              Sales tax ({percent(estimate.taxRate)})
            </th>
            <td className="py-1 text-right tabular-nums">{formatUsd(estimate.taxCents)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3} className="py-1 pr-3 text-right font-semibold">
              Total
            </th>
            <td className="py-1 text-right font-semibold tabular-nums">
              {formatUsd(estimate.totalCents)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
