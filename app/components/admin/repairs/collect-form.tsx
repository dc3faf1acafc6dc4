import { Form } from "react-router";
import { FormField, SelectField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { PAYMENT_LABELS, PAYMENT_METHODS } from "#app/domain/repair-tickets/status.ts";
import { useBusy, type TicketAnswer } from "./ticket-answer.ts";
import { TenderFields } from "./tender-fields.tsx";
import { Message, Section } from "./ticket-section.tsx";
import { errorsOf } from "#app/lib/answer.ts";

/**
 * The customer collected the device: what is taken now and how, and why if everything paid does
 * not come to the approved total.
 */
export function CollectForm({
  formKey,
  collectAmount,
  approvedTotal,
  paidBefore,
  answer,
}: {
  /** The form's own key: sent twice, it takes the money once. */
  formKey: string;
  /** The balance due in dollars, the amount the form starts with. */
  collectAmount: string;
  approvedTotal: string;
  /** Paid before collection (a deposit, online), when anything was. */
  paidBefore: string | null;
  answer?: TicketAnswer;
}) {
  const busy = useBusy("collect");
  const mine = answer?.intent === "collect" ? answer : undefined;
  const errors = errorsOf(mine);
  return (
    <Section id="ticket-collect" title="Collected by the customer">
      <Message answer={answer} intent="collect" />
      {paidBefore ? (
        <p className="mb-3 text-sm">
          {paidBefore} was paid before; the balance due is ${collectAmount}.
        </p>
      ) : null}
      <Form method="post" noValidate className="flex flex-wrap items-start gap-3">
        <input type="hidden" name="intent" value="collect" />
        <input type="hidden" name="key" value={formKey} />
        <SelectField
          label="Paid by"
          name="paymentMethod"
          defaultValue={mine?.values?.paymentMethod ?? ""}
          error={errors.paymentMethod}
          placeholder="Choose how it was paid"
          options={PAYMENT_METHODS.map((method) => ({
            value: method,
            label: method === "no_charge" ? "Nothing more (no charge)" : PAYMENT_LABELS[method],
          }))}
        />
        <FormField
          label="Amount paid ($)"
          name="paid"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={mine?.values?.paid ?? collectAmount}
          error={errors.paid}
        />
        <TenderFields values={mine?.values} errors={errors} />
        <FormField
          label="Reason for another amount"
          name="reason"
          maxLength={300}
          autoComplete="off"
          hint={`Needed when all paid does not come to the approved ${approvedTotal}.`}
          defaultValue={mine?.values?.reason}
          error={errors.reason}
          className="basis-full sm:basis-auto sm:grow"
        />
        <Button type="submit" disabled={busy} className="sm:mt-6">
          Mark collected
        </Button>
      </Form>
    </Section>
  );
}
