import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { DepositFields } from "./deposit-fields.tsx";
import { useBusy, type TicketAnswer } from "./ticket-answer.ts";
import { Message, Section } from "./ticket-section.tsx";
import { errorsOf } from "#app/lib/answer.ts";

/** A deposit taken at the desk before the repair: cash into the open till, or card. */
export function DepositForm({ formKey, answer }: { formKey: string; answer?: TicketAnswer }) {
  const busy = useBusy("deposit");
  const mine = answer?.intent === "deposit" ? answer : undefined;
  const errors = errorsOf(mine);
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
        <input type="hidden" name="key" value={formKey} />
        <DepositFields values={values} errors={errors} />
        <Button type="submit" disabled={busy} className="sm:mt-6">
          Take the deposit
        </Button>
      </Form>
    </Section>
  );
}
