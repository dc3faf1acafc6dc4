import { type ReactNode, useEffect } from "react";
import { Form, useFetcher } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { SaleTotals } from "#app/domain/counter/sale-money.ts";
import { formatUsd } from "#app/lib/money.ts";
import { focusScanField, type CounterAnswer } from "./counter-answer.ts";
import { IdCheckField } from "./id-check-field.tsx";
import { errorsOf } from "#app/lib/answer.ts";

/** The sale's totals, as the screen and the receipt show them. */
export function SaleTotalsList({ totals, taxLabel }: { totals: SaleTotals; taxLabel: string }) {
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm tabular-nums">
      <dt>Subtotal</dt>
      <dd className="text-right">{formatUsd(totals.subtotalCents)}</dd>
      {totals.discountCents > 0 ? (
        <>
          <dt>Discounts</dt>
          <dd className="text-right">-{formatUsd(totals.discountCents)}</dd>
        </>
      ) : null}
      <dt>{taxLabel}</dt>
      <dd className="text-right">{formatUsd(totals.taxCents)}</dd>
      <dt className="text-base font-bold">Total</dt>
      <dd className="text-right text-base font-bold">{formatUsd(totals.totalCents)}</dd>
    </dl>
  );
}

/** The payment's panel: its heading and the sale's totals, then what can be done now. */
export function PaymentPanel({
  totals,
  taxLabel,
  children,
}: {
  totals: SaleTotals;
  taxLabel: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="counter-pay-heading"
      className="flex flex-col gap-4 rounded-md border p-4"
    >
      <h2 id="counter-pay-heading" className="text-lg font-semibold">
        Payment
      </h2>
      <SaleTotalsList totals={totals} taxLabel={taxLabel} />
      {children}
    </section>
  );
}

/**
 * Paying the open sale: in cash (what the customer hands over; the server works out the change),
 * by card through the reader, or both (the card's part typed, the cash beside it). A sale with
 * adult titles asks for the birth date on the customer's ID first.
 */
export function PayForm({
  totals,
  taxLabel,
  needsIdCheck,
  cardMessage,
  answer,
}: {
  totals: SaleTotals;
  taxLabel: string;
  needsIdCheck: boolean;
  /** Why the card just handed to the reader did not pay. */
  cardMessage: string | null;
  answer: CounterAnswer | undefined;
}) {
  const errors = errorsOf(answer);
  const values = answer?.values ?? {};
  const cashError = errors.cashTenderedCents ?? errors.cashTendered;
  const cardError = errors.cardCents ?? errors.card;
  const fieldError = (needsIdCheck && errors.idCheck) || cashError || cardError;
  const voiding = useFetcher<CounterAnswer>();
  useEffect(() => {
    if (voiding.state === "idle" && voiding.data?.ok) focusScanField();
  }, [voiding.state, voiding.data]);
  return (
    <PaymentPanel totals={totals} taxLabel={taxLabel}>
      <Form method="post" className="flex flex-col gap-3">
        {answer && !answer.ok && !fieldError && answer.message ? (
          <FormMessage tone="error">{answer.message}</FormMessage>
        ) : cardMessage && !answer ? (
          <FormMessage tone="error">{cardMessage}</FormMessage>
        ) : null}
        {needsIdCheck ? <IdCheckField value={values.idCheck ?? ""} error={errors.idCheck} /> : null}
        <FormField
          label="Cash tendered ($)"
          name="cashTendered"
          inputMode="decimal"
          autoComplete="off"
          hint={`Due: ${formatUsd(totals.totalCents)}`}
          defaultValue={values.cashTendered ?? ""}
          error={cashError}
        />
        <Button type="submit" name="intent" value="pay" size="lg">
          Pay {formatUsd(totals.totalCents)} in cash
        </Button>
        <FormField
          label="Card amount ($)"
          name="card"
          inputMode="decimal"
          autoComplete="off"
          hint="Empty: the card pays what the cash does not cover."
          defaultValue={values.card ?? ""}
          error={cardError}
        />
        <Button type="submit" name="intent" value="card" size="lg" variant="secondary">
          Charge the card
        </Button>
      </Form>
      <voiding.Form method="post">
        <input type="hidden" name="intent" value="void" />
        <Button type="submit" variant="outline" className="w-full">
          Void sale
        </Button>
      </voiding.Form>
    </PaymentPanel>
  );
}
