import { useFetcher } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { formatPriceInput, formatUsd } from "#app/lib/money.ts";
import type { CounterAnswer } from "./counter-answer.ts";
import { errorsOf } from "#app/lib/answer.ts";

export type CounterLine = {
  id: number;
  name: string;
  adult: boolean;
  quantity: number;
  unitPriceCents: number;
  discountCents: number;
  discountReason: string | null;
  taxable: boolean;
};

/** The sale's lines, newest last, each with its quantity and discount to change, or to remove. */
export function SaleLines({ lines }: { lines: CounterLine[] }) {
  if (lines.length === 0) {
    return <p className="text-sm text-muted-foreground">Nothing scanned yet.</p>;
  }
  return (
    <ol className="flex flex-col divide-y rounded-md border" aria-label="Lines of this sale">
      {lines.map((line) => (
        <SaleLineRow key={line.id} line={line} />
      ))}
    </ol>
  );
}

function SaleLineRow({ line }: { line: CounterLine }) {
  const fetcher = useFetcher<CounterAnswer>();
  const answer = fetcher.data;
  const lineTotal = line.unitPriceCents * line.quantity - line.discountCents;
  const errors = errorsOf(answer);
  return (
    <li className="flex flex-col gap-2 p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="min-w-0 font-medium">
          {line.name}
          {line.adult ? <span className="ml-2 text-xs font-semibold">18+</span> : null}
          {line.taxable ? <span className="sr-only"> (taxable)</span> : null}
        </span>
        <span className="tabular-nums">{formatUsd(lineTotal)}</span>
      </div>
      <p className="text-sm text-muted-foreground">
        {line.quantity} × {formatUsd(line.unitPriceCents)}
        {line.discountCents > 0
          ? ` · discount ${formatUsd(line.discountCents)} (${line.discountReason})`
          : ""}
      </p>
      <details className="text-sm" open={Object.keys(errors).length > 0 || undefined}>
        <summary className="cursor-pointer text-primary underline-offset-2 hover:underline">
          Change quantity or discount<span className="sr-only"> of “{line.name}”</span>
        </summary>
        {/* Drawn anew when the line changes (another scan of it), so it shows what is saved. */}
        <fetcher.Form
          key={`${line.quantity}:${line.discountCents}:${line.discountReason}`}
          method="post"
          className="mt-2 grid gap-2 sm:grid-cols-[6rem_8rem_1fr_auto] sm:items-end"
        >
          <input type="hidden" name="intent" value="line" />
          <input type="hidden" name="line" value={line.id} />
          <FormField
            label="Quantity"
            name="quantity"
            inputMode="numeric"
            defaultValue={String(line.quantity)}
            required
            error={errors.quantity}
          />
          <FormField
            label="Discount ($)"
            name="discount"
            inputMode="decimal"
            defaultValue={line.discountCents > 0 ? formatPriceInput(line.discountCents) : ""}
            error={errors.discount}
          />
          <FormField
            label="Reason for the discount"
            name="reason"
            maxLength={120}
            defaultValue={line.discountReason ?? ""}
            error={errors.reason}
          />
          <Button type="submit" variant="outline">
            Save<span className="sr-only"> “{line.name}”</span>
          </Button>
        </fetcher.Form>
      </details>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="line" value={line.id} />
        <Button type="submit" variant="ghost" size="sm">
          Remove<span className="sr-only"> “{line.name}”</span>
        </Button>
      </fetcher.Form>
      {answer && !answer.ok && Object.keys(errors).length === 0 ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {answer.message}
        </p>
      ) : null}
    </li>
  );
}
