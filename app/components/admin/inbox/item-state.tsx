import { Form, Link, useNavigation } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { CancelBooking } from "./cancel-booking.tsx";
import type { InboxAnswer, InboxItemShown } from "./inbox-item.ts";

/** Open or handled, and what can be done next: a ticket opened, a booking cancelled. */
export function ItemState({
  loaderData,
  answer,
}: {
  loaderData: InboxItemShown;
  answer: InboxAnswer | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { handled } = loaderData;
  return (
    <section aria-labelledby="inbox-state" className="mt-6">
      <h2 id="inbox-state" className="sr-only">
        State
      </h2>
      {answer && answer.intent !== "reply" && answer.message ? (
        <div className="mb-3">
          <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <p>{handled ? `Handled by ${handled.by} on ${handled.at}.` : "Open: not handled yet."}</p>
        <Form method="post">
          <input type="hidden" name="intent" value={handled ? "reopen" : "handled"} />
          <Button type="submit" variant={handled ? "outline" : "default"} disabled={busy}>
            {handled ? "Reopen" : "Mark as handled"}
          </Button>
        </Form>
        {loaderData.repair?.canOpenTicket ? (
          <Link
            to={`/admin/repairs/new?booking=${loaderData.ref.id}`}
            className={buttonVariants({ variant: "outline" })}
          >
            Open a ticket
          </Link>
        ) : null}
        <CancelBooking loaderData={loaderData} answer={answer} />
      </div>
    </section>
  );
}
