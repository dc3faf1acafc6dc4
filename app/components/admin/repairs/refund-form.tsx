import { Form } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useBusy, type TicketAnswer } from "./ticket-answer.ts";
import { Message, Section } from "./ticket-section.tsx";
import { errorsOf } from "#app/lib/answer.ts";

/**
 * The device goes back unrepaired: what the ticket took goes back the way it was paid (to the
 * card first, then cash from the till), never more than was taken. Shown while something is
 * left to give back, and with its answer once everything was.
 */
export function RefundForm({
  refund,
  formKey,
  answer,
}: {
  /** What is left to give back (dollars, and in words), or null when nothing is. */
  refund: { amount: string; left: string } | null;
  formKey: string;
  answer?: TicketAnswer;
}) {
  const busy = useBusy("refund");
  const mine = answer?.intent === "refund" ? answer : undefined;
  const errors = errorsOf(mine);
  return (
    <Section id="ticket-refund" title="Refund the deposit">
      <Message answer={answer} intent="refund" />
      {refund ? (
        <>
          <p className="mb-3 text-sm">Left to refund: {refund.left}.</p>
          <Form
            method="post"
            noValidate
            className="flex flex-wrap items-start gap-3"
            key={mine?.ok ? mine.sentId : "refund"}
          >
            <input type="hidden" name="intent" value="refund" />
            <input type="hidden" name="key" value={formKey} />
            <FormField
              label="Amount to refund ($)"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              hint="All that is left, unless part of it is kept."
              defaultValue={mine && !mine.ok ? mine.values?.amount : refund.amount}
              error={errors.amount}
            />
            <Button type="submit" disabled={busy} className="sm:mt-6">
              Refund the deposit
            </Button>
          </Form>
        </>
      ) : (
        <p className="text-sm">Everything taken on this ticket has been given back.</p>
      )}
    </Section>
  );
}
