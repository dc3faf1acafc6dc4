import { useEffect } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { SaleTotals } from "#app/domain/counter/sale-money.ts";
import { formatUsd } from "#app/lib/money.ts";
import { focusScanField, type CounterAnswer } from "./counter-answer.ts";
import { PaymentPanel } from "./pay-form.tsx";

/**
 * The sale while the card reader takes its card part (decision 023, point 6): what the reader
 * charges and the cash beside it, and a way to stop. The page asks again every second, so the
 * receipt's banner (paid) or the payment form with the reader's reason (not paid) replaces this
 * as soon as the provider has answered.
 */
export function AwaitingCard({
  totals,
  taxLabel,
  cardCents,
  cashTenderedCents,
  answer,
}: {
  totals: SaleTotals;
  taxLabel: string;
  cardCents: number;
  cashTenderedCents: number;
  answer: CounterAnswer | undefined;
}) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 1000);
    return () => window.clearInterval(timer);
  }, [revalidator]);
  const cancelling = useFetcher<CounterAnswer>();
  useEffect(() => {
    if (cancelling.state === "idle" && cancelling.data?.ok) focusScanField();
  }, [cancelling.state, cancelling.data]);
  const refusal = cancelling.data && !cancelling.data.ok ? cancelling.data : answer;
  return (
    <PaymentPanel totals={totals} taxLabel={taxLabel}>
      <p role="status" className="rounded-md border border-primary/40 bg-primary/5 px-3 py-2">
        <span className="font-medium">Waiting for the card reader:</span> {formatUsd(cardCents)} on
        the card
        {cashTenderedCents > 0 ? `, ${formatUsd(cashTenderedCents)} cash tendered` : ""}.
      </p>
      {refusal && !refusal.ok ? <FormMessage tone="error">{refusal.message}</FormMessage> : null}
      <cancelling.Form method="post">
        <input type="hidden" name="intent" value="cancel-card" />
        <Button type="submit" variant="outline" className="w-full">
          Cancel the card payment
        </Button>
      </cancelling.Form>
    </PaymentPanel>
  );
}
