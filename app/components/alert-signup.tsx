import { useId } from "react";
import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { BACK_IN_STOCK_ANCHOR } from "#app/domain/alerts/anchor.ts";
import { ALERT_BUTTON_LABELS, type AlertKind } from "#app/domain/alerts/status.ts";
import type { Answer } from "#app/lib/answer.ts";
import type { loader as rootLoader } from "#app/root.tsx";
import { FormField, FormMessage } from "./form-field.tsx";
import { Button } from "./ui/button.tsx";

export type AlertAnswer = Answer;

/**
 * "Email me when it's back" (a sold-out title) or "Notify me on release" (a Coming Soon entry).
 * A signed-in customer asks in one press; a visitor gives an address, confirmed by an e-mailed
 * link. Posts to /alerts, which also answers a plain form post without JavaScript.
 */
export function AlertSignup({ kind, id, title }: { kind: AlertKind; id: number; title: string }) {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  const fetcher = useFetcher<AlertAnswer>();
  const location = useLocation();
  const headingId = useId();
  const answer = fetcher.data;
  const busy = fetcher.state !== "idle";
  return (
    <section
      id={kind === "restock" ? BACK_IN_STOCK_ANCHOR : undefined}
      aria-labelledby={headingId}
      className="mt-4 flex scroll-mt-24 flex-col gap-3 rounded-lg border p-4"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {kind === "restock" ? "Sold out for now" : "Not out yet"}
      </h2>
      {answer?.ok ? (
        <FormMessage tone="success">{answer.message}</FormMessage>
      ) : (
        <fetcher.Form method="post" action="/alerts" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="returnTo" value={location.pathname} />
          {answer && !answer.errors ? (
            <FormMessage tone="error">{answer.message}</FormMessage>
          ) : null}
          {signedIn ? (
            <p className="text-sm text-muted-foreground">
              We e-mail you once when {title} {kind === "restock" ? "is back" : "is released"}.
            </p>
          ) : (
            <FormField
              label="Your email"
              name="email"
              type="email"
              autoComplete="email"
              hint={`We e-mail you once when ${title} ${kind === "restock" ? "is back" : "is released"}, after you confirm the address.`}
              error={answer?.errors?.email}
            />
          )}
          <div>
            <Button type="submit" variant="outline" disabled={busy}>
              {ALERT_BUTTON_LABELS[kind]}
            </Button>
          </div>
        </fetcher.Form>
      )}
    </section>
  );
}
