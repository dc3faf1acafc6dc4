import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { formatUsd } from "#app/lib/money.ts";
import { focusScanField, SCAN_FIELD_ID, type CounterAnswer } from "./counter-answer.ts";

/**
 * The counter's scan field (decision 023, point 2): a USB or Bluetooth scanner types the
 * barcode's digits and Enter into it; a clerk may type a serial (A and the number for an adult
 * title), a SKU or words of a name, and choose among what is found. After every line, focus comes
 * back here, ready for the next scan. Drawn anew for each sale (its `key`), so an answer about
 * the last sale is not shown beside the next.
 */
export function ScanForm({
  fallback,
  linesKey,
}: {
  fallback: CounterAnswer | undefined;
  /** What the sale's lines are now: when they change (a line added, changed or removed), focus
   * comes back here. */
  linesKey: string;
}) {
  const fetcher = useFetcher<CounterAnswer>();
  const answer = fetcher.data ?? fallback;
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";

  // Ready for a scan the moment the counter opens, each new sale starts and each line changes,
  // after the page's heading took focus as on any new page.
  useEffect(focusScanField, [linesKey]);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.ok) return;
    if (!fetcher.data.results) form.current?.reset();
    focusScanField();
  }, [fetcher.state, fetcher.data]);

  const error =
    answer && !answer.ok ? (answer.errors?.code ?? answer.message ?? undefined) : undefined;
  return (
    <section aria-labelledby="counter-scan-heading" className="flex flex-col gap-3">
      <h2 id="counter-scan-heading" className="sr-only">
        Scan
      </h2>
      <fetcher.Form ref={form} method="post" className="flex items-end gap-2">
        <input type="hidden" name="intent" value="scan" />
        <FormField
          id={SCAN_FIELD_ID}
          className="min-w-0 flex-1"
          label="Barcode, serial, SKU or name"
          name="code"
          autoComplete="off"
          autoFocus
          enterKeyHint="enter"
          maxLength={100}
          required
          error={error}
        />
        <Button type="submit" aria-disabled={busy || undefined}>
          {busy ? "Adding…" : "Add"}
        </Button>
      </fetcher.Form>
      {answer?.ok && answer.results ? <FoundProducts answer={answer} fetcher={fetcher} /> : null}
    </section>
  );
}

function FoundProducts({
  answer,
  fetcher,
}: {
  answer: CounterAnswer;
  /** The scan field's own: choosing a product answers in its place. */
  fetcher: ReturnType<typeof useFetcher<CounterAnswer>>;
}) {
  const results = answer.results ?? [];
  return (
    <div className="rounded-md border p-3">
      <p role="status" className="mb-2 text-sm font-medium">
        {answer.message}
      </p>
      <ul className="flex flex-col divide-y">
        {results.map((product) => (
          <li
            key={`${product.type}:${product.id}`}
            className="flex flex-wrap items-center justify-between gap-2 py-2"
          >
            <span className="min-w-0">
              <span className="block font-medium">{product.name}</span>
              <span className="block text-xs text-muted-foreground">
                {product.detail} · {formatUsd(product.priceCents)} ·{" "}
                {product.stock === 0 ? "sold out" : `${product.stock} in stock`}
              </span>
            </span>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="add" />
              <input type="hidden" name="type" value={product.type} />
              <input type="hidden" name="id" value={product.id} />
              <Button type="submit" variant="outline" size="sm" disabled={product.stock === 0}>
                Add<span className="sr-only"> “{product.name}”</span>
              </Button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
