import { Form } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { Answer } from "#app/lib/answer.ts";

/** Sends the receipt to the customer's address, on screen only (never printed). */
export function ReceiptByEmail({ answer }: { answer: Answer | undefined }) {
  return (
    <section aria-labelledby="receipt-email-heading" className="max-w-md print:hidden">
      <h2 id="receipt-email-heading" className="sr-only">
        E-mail the receipt
      </h2>
      {answer?.ok && answer.message ? (
        <FormMessage tone="success">{answer.message}</FormMessage>
      ) : null}
      <Form method="post" className="flex items-end gap-2">
        <FormField
          className="min-w-0 flex-1"
          label="Customer's e-mail"
          name="email"
          type="email"
          autoComplete="off"
          required
          defaultValue={answer && !answer.ok ? (answer.values?.email ?? "") : ""}
          error={
            answer && !answer.ok ? (answer.errors?.email ?? answer.message ?? undefined) : undefined
          }
        />
        <Button type="submit" variant="outline">
          E-mail the receipt
        </Button>
      </Form>
    </section>
  );
}
