import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatUsd } from "#app/lib/money.ts";

export type ExtraPaymentRow = {
  id: number;
  amountCents: number | null;
  reason: "other-session" | "already-paid";
  received: string;
  refunded: string | null;
  sessionId: string;
};

const REASONS = {
  "other-session": "paid through another payment page than the order's",
  "already-paid": "paid again after the order was paid",
} as const;

/** Money taken for an order that is not its payment: each one to refund, and when it was. */
export function ExtraPaymentsCard({ payments }: { payments: ExtraPaymentRow[] }) {
  const refunding = useNavigation().formData?.get("extraPaymentId");
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Payments taken twice</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-3 text-sm">
          {payments.map((payment) => (
            <li key={payment.id} className="flex flex-wrap items-center gap-3">
              <span className="font-medium tabular-nums">
                {payment.amountCents === null ? "Amount unknown" : formatUsd(payment.amountCents)}
              </span>
              <span>
                {REASONS[payment.reason]}, {payment.received}
                <span className="block text-xs break-all text-muted-foreground">
                  Session {payment.sessionId}
                </span>
              </span>
              {payment.refunded ? (
                <span>Refunded {payment.refunded}</span>
              ) : (
                <Form method="post" className="flex items-center gap-3">
                  <span className="font-medium">Refund due</span>
                  <input type="hidden" name="intent" value="refund-extra" />
                  <input type="hidden" name="extraPaymentId" value={payment.id} />
                  <Button type="submit" size="sm" disabled={refunding === String(payment.id)}>
                    Refund this payment
                  </Button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
