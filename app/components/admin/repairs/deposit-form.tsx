import { Form } from "react-router";
import { FormField, SelectField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useBusy, type TicketAnswer } from "./ticket-answer.ts";
import { TenderFields } from "./tender-fields.tsx";
import { Message, Section } from "./ticket-section.tsx";

/** A deposit taken at the desk before the repair: cash into the open till, or card. */
export function DepositForm({ answer }: { answer?: TicketAnswer }) {
  const busy = useBusy("deposit");
  const mine = answer?.intent === "deposit" ? answer : undefined;
  const errors = mine?.errors ?? {};
  const values = mine?.ok ? undefined : mine?.values;
  return (
    <Section id="ticket-deposit" title="Deposit">
      <Message answer={answer} intent="deposit" />
      <Form
        method="post"
        noValidate
        className="flex flex-wrap items-start gap-3"
        key={mine?.ok ? mine.sentId : "deposit"}
      >
        <input type="hidden" name="intent" value="deposit" />
        <SelectField
          label="Deposit paid by"
          name="method"
          defaultValue={values?.method ?? ""}
          error={errors.method}
          placeholder="Choose cash or card"
          options={[
            { value: "cash", label: "Cash" },
            { value: "card", label: "Card" },
          ]}
        />
        <FormField
          label="Deposit ($)"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={values?.amount}
          error={errors.amount}
        />
        <TenderFields values={values} errors={errors} />
        <Button type="submit" disabled={busy} className="sm:mt-6">
          Take the deposit
        </Button>
      </Form>
    </Section>
  );
}
