import { Form } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";

/** An alert as My Account lists it, its words made on the server. */
export type AccountAlert = {
  id: number;
  title: string;
  kind: string;
  status: string;
  /** Still waiting for the title: its owner can unsubscribe. */
  waiting: boolean;
};

/** My Account → My Alerts: the customer's stock alerts, each waiting one with Unsubscribe. */
export function AccountAlerts({
  alerts,
  error,
  busy,
}: {
  alerts: AccountAlert[];
  error: string | null;
  busy: boolean;
}) {
  return (
    <>
      <h1 className="mt-4 text-2xl font-bold">My Alerts</h1>
      <p className="mt-1 text-muted-foreground">
        The titles you asked us to e-mail you about, newest first.
      </p>
      {error ? (
        <div className="mt-4">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      ) : null}
      {alerts.length === 0 ? (
        <p className="mt-6">
          You have no alerts. On a sold-out title, choose “Email me when it&apos;s back”.
        </p>
      ) : (
        <ul className="mt-6 divide-y rounded-xl border bg-card" aria-label="Your alerts">
          {alerts.map((alert) => (
            <li key={alert.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <span className="min-w-0">
                <span className="block font-medium break-words">{alert.title}</span>
                <span className="text-sm text-muted-foreground">
                  {alert.kind} · {alert.status}
                </span>
              </span>
              {alert.waiting ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="alert-unsubscribe" />
                  <input type="hidden" name="id" value={alert.id} />
                  <Button type="submit" variant="outline" size="sm" disabled={busy}>
                    Unsubscribe<span className="sr-only"> from the alert for {alert.title}</span>
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
