import type { Answer } from "#app/lib/answer.ts";
import { Form, useNavigation } from "react-router";
import { FormMessage, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  LINE_CONDITION_LABELS,
  LINE_CONDITIONS,
  type ReturnStatus,
} from "#app/domain/returns/status.ts";
import { formatUsd } from "#app/lib/money.ts";

/** What the return page's action answers. */
export type ReturnAnswer = Answer;

/** An item of the return, with the form field that says its condition. */
export type ReturnItem = {
  field: string;
  title: string;
  quantity: number;
  unitPriceCents: number;
  condition: keyof typeof LINE_CONDITION_LABELS | null;
};

function ReceiveForm({ items, answer }: { items: ReturnItem[]; answer?: ReturnAnswer }) {
  const busy = useNavigation().formData?.get("intent") === "receive";
  return (
    <Form method="post" noValidate className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="receive" />
      <p className="text-sm">
        The parcel is here: say of each item whether it goes back on sale. Stock comes back with the
        refund.
      </p>
      {items.map((item) => (
        <SelectField
          key={item.field}
          label={`${item.quantity} × ${item.title}`}
          name={item.field}
          defaultValue={answer?.values?.[item.field] ?? ""}
          error={answer?.errors?.[item.field]}
          className="sm:max-w-md"
          placeholder="Choose its condition"
          options={LINE_CONDITIONS.map((condition) => ({
            value: condition,
            label: LINE_CONDITION_LABELS[condition],
          }))}
        />
      ))}
      <div>
        <Button type="submit" disabled={busy}>
          Mark as received
        </Button>
      </div>
    </Form>
  );
}

function RejectForm({ answer }: { answer?: ReturnAnswer }) {
  const busy = useNavigation().formData?.get("intent") === "reject";
  return (
    <Form method="post" noValidate className="flex flex-col gap-3 border-t pt-4">
      <input type="hidden" name="intent" value="reject" />
      <TextareaField
        label="Reason for rejecting (the customer is told)"
        name="reason"
        rows={2}
        maxLength={500}
        defaultValue={answer?.values?.reason ?? ""}
        error={answer?.errors?.reason}
      />
      <div>
        <Button type="submit" variant="destructive" disabled={busy}>
          Reject return
        </Button>
      </div>
    </Form>
  );
}

function RefundForm({ total }: { total: string }) {
  const busy = useNavigation().formData?.get("intent") === "refund";
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="refund" />
      <Button type="submit" disabled={busy}>
        Refund {total}
      </Button>
    </Form>
  );
}

/** What staff can do with the return now: receive or reject it, refund it, or nothing. */
export function ReturnActions({
  ret,
  items,
  refundCents,
  answer,
}: {
  ret: { status: ReturnStatus; refundError: string | null };
  items: ReturnItem[];
  refundCents: number;
  answer?: ReturnAnswer;
}) {
  if (ret.status === "requested") {
    return (
      <div className="flex flex-col gap-4">
        <ReceiveForm items={items} answer={answer} />
        <RejectForm answer={answer} />
      </div>
    );
  }
  if (ret.status === "received") {
    return (
      <div className="flex flex-col gap-4">
        {ret.refundError ? (
          <FormMessage tone="error">
            The last refund did not go through ({ret.refundError}). Try the refund again.
          </FormMessage>
        ) : null}
        <p className="text-sm">
          Refunding gives the customer {formatUsd(refundCents)} back to their card, puts the items
          marked back to stock on sale and e-mails the customer.
        </p>
        <div>
          <RefundForm total={formatUsd(refundCents)} />
        </div>
        <RejectForm answer={answer} />
      </div>
    );
  }
  return <p className="text-sm text-muted-foreground">Nothing left to do for this return.</p>;
}
