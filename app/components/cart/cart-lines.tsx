import {
  CartLineThumbnail,
  CartLineTitle,
  QuantityStepper,
  RemoveLineButton,
} from "#app/components/cart-line-controls.tsx";
import type { CartLine } from "#app/lib/cart.ts";
import { formatUsd } from "#app/lib/money.ts";

/** The cart's lines, each with its quantity stepper, total and remove button. */
export function CartLines({ lines }: { lines: CartLine[] }) {
  return (
    <ul
      aria-label="Items in your cart"
      className="flex flex-col divide-y rounded-xl border bg-card"
    >
      {lines.map((line) => (
        <li key={line.lineId} className="flex gap-4 p-4">
          <CartLineThumbnail line={line} className="w-20" />
          <div className="flex flex-1 flex-wrap items-start justify-between gap-4">
            <div>
              <p>
                <CartLineTitle line={line} />
              </p>
              <p className="text-sm text-muted-foreground">
                {line.disc}
                {line.kind === "adult" ? " · Adult catalogue" : ""}
              </p>
              <p className="mt-1 text-sm">Price: {formatUsd(line.priceCents)}</p>
            </div>
            <div className="flex flex-col items-end gap-2">
              <QuantityStepper line={line} />
              <p className="text-sm font-semibold">
                Item Total: {formatUsd(line.priceCents * line.quantity)}
              </p>
              <RemoveLineButton line={line} />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
