import type { Answer } from "#app/lib/answer.ts";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { formatUsd } from "#app/lib/money.ts";

/** What the order page's action answers. */
export type OrderAnswer = Answer<{ carrier: string; trackingNumber: string }>;

function ShipForm({ answer }: { answer: OrderAnswer | undefined }) {
  const busy = useNavigation().formData?.get("intent") === "ship";
  return (
    <Form method="post" noValidate className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="ship" />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField
          label="Carrier (optional)"
          name="carrier"
          maxLength={40}
          autoComplete="off"
          defaultValue={answer?.values?.carrier}
          error={answer?.errors?.carrier}
        />
        <FormField
          label="Tracking number (optional)"
          name="trackingNumber"
          maxLength={40}
          autoComplete="off"
          defaultValue={answer?.values?.trackingNumber}
          error={answer?.errors?.trackingNumber}
        />
      </div>
      <div>
        <Button type="submit" disabled={busy}>
          Mark as shipped
        </Button>
      </div>
    </Form>
  );
}

function CancelDialog({ orderId, paid, total }: { orderId: number; paid: boolean; total: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="destructive">Cancel order</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel order #{orderId}?</DialogTitle>
          <DialogDescription>
            {paid
              ? `Its stock goes back on sale, the payment of ${total} is refunded to the customer's card, and the customer is told by e-mail.`
              : "Its stock goes back on sale, its payment page is closed, and the customer is told by e-mail. Nothing was charged."}
          </DialogDescription>
        </DialogHeader>
        <Form method="post" onSubmit={() => setOpen(false)}>
          <input type="hidden" name="intent" value="cancel" />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Keep order
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive">
              {paid ? "Cancel and refund" : "Cancel order"}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}

function IntentButton({
  intent,
  children,
}: {
  intent: "complete" | "refund";
  children: React.ReactNode;
}) {
  const busy = useNavigation().formData?.get("intent") === intent;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" disabled={busy}>
        {children}
      </Button>
    </Form>
  );
}

/** What staff can do with the order in its status: ship, cancel, complete or refund it. */
export function OrderActions({
  order,
  answer,
}: {
  order: {
    id: number;
    status: string;
    totalCents: number;
    refundDue: boolean;
    /** A pickup order is not shipped: it is made ready and collected at the counter. */
    pickup: object | null;
  };
  answer: OrderAnswer | undefined;
}) {
  const total = formatUsd(order.totalCents);
  if (order.status === "paid") {
    return (
      <div className="flex flex-col gap-4">
        {order.pickup ? null : <ShipForm answer={answer} />}
        <div className={order.pickup ? undefined : "border-t pt-4"}>
          <CancelDialog orderId={order.id} paid total={total} />
        </div>
      </div>
    );
  }
  if (order.status === "pending") {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-muted-foreground">
          Waiting for the customer&apos;s payment. It can be cancelled; it cannot ship yet.
        </p>
        <div>
          <CancelDialog orderId={order.id} paid={false} total={total} />
        </div>
      </div>
    );
  }
  if (order.status === "shipped") {
    return <IntentButton intent="complete">Mark as completed</IntentButton>;
  }
  if (order.refundDue) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm">
          This order was paid ({total}) but will not ship: the money has to go back.
        </p>
        <div>
          <IntentButton intent="refund">Refund payment</IntentButton>
        </div>
      </div>
    );
  }
  return <p className="text-sm text-muted-foreground">Nothing left to do for this order.</p>;
}
