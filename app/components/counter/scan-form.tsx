import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { formatUsd } from "#app/lib/money.ts";
import { CameraScan } from "./camera-scan.tsx";
import { focusScanField, SCAN_FIELD_ID, type CounterAnswer } from "./counter-answer.ts";

const CAMERA_ERROR_ID = "counter-camera-error";

/**
 * The counter's scan field (decision 023, point 2): a USB or Bluetooth scanner types the
 * barcode's digits and Enter into it; a clerk may type a serial (A and the number for an adult
 * title), a SKU or words of a name, and choose among what is found. After every line, focus comes
 * back here, ready for the next scan. An answer about a sale that has ended (paid or voided) is
 * not shown beside the next one; the field itself stays, so codes scanned meanwhile go on. On a
 * tablet or phone the camera reads codes into the same queue ("Scan with the camera").
 */
export function ScanForm({
  saleNumber,
  fallback,
  linesKey,
}: {
  /** The sale being scanned; null before the first line. */
  saleNumber: string | null;
  fallback: CounterAnswer | undefined;
  /** What the sale's lines are now: when they change (a line added, changed or removed), focus
   * comes back here. */
  linesKey: string;
}) {
  const fetcher = useFetcher<CounterAnswer>();
  // When a sale ends, what the field last answered belongs to it, and is put away.
  const [endedAnswer, setEndedAnswer] = useState<CounterAnswer | undefined>();
  const [lastSale, setLastSale] = useState(saleNumber);
  if (saleNumber !== lastSale) {
    setLastSale(saleNumber);
    if (lastSale !== null) setEndedAnswer(fetcher.data);
  }
  const current = fetcher.data === endedAnswer ? undefined : fetcher.data;
  const answer = current ?? fallback;
  const field = useRef<HTMLInputElement | null>(null);
  const busy = fetcher.state !== "idle";
  // A scanner types the next code while the last one is still being added: each code leaves the
  // field as it is sent, and codes wait here for their turn, so none is cut short or lost.
  const waiting = useRef<string[]>([]);
  const sent = useRef("");
  // While the camera's dialog is open, focus stays in it: the field takes it back on closing.
  const cameraOpen = useRef(false);
  const [cameraError, setCameraError] = useState<string | undefined>();

  // A code is on its way from the moment it is sent, before the fetcher says so in a render: the
  // camera may hand over two codes at once.
  const inFlight = useRef(false);

  const sendNext = () => {
    const code = waiting.current.shift();
    if (code === undefined) return;
    inFlight.current = true;
    sent.current = code;
    void fetcher.submit({ intent: "scan", code }, { method: "post" });
  };

  const focusField = () => {
    if (!cameraOpen.current) focusScanField();
  };
  const queue = (code: string) => {
    waiting.current.push(code);
    if (!inFlight.current && fetcher.state === "idle") sendNext();
  };

  // Ready for a scan the moment the counter opens, each new sale starts and each line changes,
  // after the page's heading took focus as on any new page.
  useEffect(() => {
    if (!cameraOpen.current) focusScanField();
  }, [linesKey]);
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    inFlight.current = false;
    if (!fetcher.data) return;
    if (waiting.current.length > 0) {
      sendNext();
      return;
    }
    // A code that was refused (or found several products) comes back to the field, unless the
    // clerk has started typing the next one.
    const input = field.current;
    if (input && input.value === "" && (!fetcher.data.ok || fetcher.data.results)) {
      input.value = sent.current;
    }
    if (fetcher.data.ok) focusField();
    // sendNext reads refs only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const input = field.current;
    if (!input || input.value.trim() === "") return;
    event.preventDefault();
    const code = input.value;
    input.value = "";
    queue(code);
  };

  const error =
    answer && !answer.ok ? (answer.errors?.code ?? answer.message ?? undefined) : undefined;
  return (
    <section aria-labelledby="counter-scan-heading" className="flex flex-col gap-3">
      <h2 id="counter-scan-heading" className="sr-only">
        Scan
      </h2>
      <div className="flex items-end gap-2">
        <fetcher.Form
          method="post"
          onSubmit={onSubmit}
          className="flex min-w-0 flex-1 items-end gap-2"
        >
          <input type="hidden" name="intent" value="scan" />
          <FormField
            id={SCAN_FIELD_ID}
            ref={field}
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
        <CameraScan
          onCode={queue}
          answer={fetcher.data}
          busy={busy}
          onOpenChange={(open) => {
            cameraOpen.current = open;
          }}
          onError={setCameraError}
          describedBy={cameraError ? CAMERA_ERROR_ID : undefined}
        />
      </div>
      {cameraError ? (
        <p id={CAMERA_ERROR_ID} role="alert" className="text-sm font-medium text-destructive">
          {cameraError}
        </p>
      ) : null}
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
