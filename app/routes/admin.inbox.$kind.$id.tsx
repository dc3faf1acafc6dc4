import { BackLink } from "#app/components/back-link.tsx";
import { useEffect, useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { CheckboxField, FormMessage, TextareaField } from "#app/components/form-field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import {
  inboxRef,
  openInboxItem,
  replyToInboxItem,
  setInboxItemHandled,
  type InboxRef,
} from "#app/domain/inbox/inbox.server.ts";
import { ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { bookingForTicket } from "#app/domain/repair-tickets/tickets.server.ts";
import { cancelAppointmentByShop } from "#app/domain/repairs/bookings.server.ts";
import { bookingRules } from "#app/domain/repairs/rules.server.ts";
import { formatAppointment } from "#app/domain/repairs/slots.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { replySchema, type ReplyValues } from "#app/domain/inbox/reply-input.ts";
import type { Route } from "./+types/admin.inbox.$kind.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData?.heading ?? "Inbox", "A contact message or repair request."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const NOT_FOUND = "This message or repair request does not exist.";

function refOrNotFound(params: { kind?: string; id?: string }): InboxRef {
  const ref = inboxRef(params.kind, params.id);
  if (!ref) throw data(NOT_FOUND, { status: 404 });
  return ref;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const ref = refOrNotFound(params);
  const now = new Date();
  const opened = await openInboxItem(getDb(), ref, { now });
  if (!opened) throw data(NOT_FOUND, { status: 404 });
  const { item, replies } = opened;
  const timeZone = getEnv().SHOP_TIME_ZONE;
  const when = (date: Date) => formatShopDateTime(date, timeZone);
  const common = {
    ref,
    name: item.name,
    email: item.email,
    received: when(item.createdAt),
    handled: item.handledAt
      ? { at: when(item.handledAt), by: item.handledByName ?? "a former staff member" }
      : null,
    replies: replies.map((reply) => ({
      id: reply.id,
      body: reply.body,
      sentByName: reply.sentByName,
      sent: when(reply.createdAt),
    })),
  };
  if (item.kind === "contact") {
    return {
      ...common,
      heading: `Message from ${item.name}`,
      contact: { message: item.message },
      repair: null,
    };
  }
  const cancellable = !item.cancelledAt && item.startsAt.getTime() > now.getTime();
  const booking = await bookingForTicket(getDb(), ref.id);
  return {
    ...common,
    heading: `Repair request from ${item.name}`,
    contact: null,
    repair: {
      phone: item.phone,
      serviceType: item.serviceType,
      issue: item.issue,
      slot: formatAppointment(item.startsAt, { timeZone }),
      cancelled: item.cancelledAt
        ? {
            at: when(item.cancelledAt),
            by: item.cancelledBy === "shop" ? "the shop" : "the customer",
          }
        : null,
      started: item.startsAt.getTime() <= now.getTime(),
      cancellable,
      /** The repair ticket opened from this booking, or whether one can be opened. */
      ticket: booking?.ticket ? ticketLabel(booking.ticket) : null,
      canOpenTicket: Boolean(booking && !booking.cancelledAt && !booking.ticket),
      // Without JavaScript the confirmation is a step of its own: `?confirm=cancel`.
      confirmCancel: cancellable && new URL(request.url).searchParams.get("confirm") === "cancel",
    },
  };
}

/** The reply form: its schema is the server's authority and its messages the page's. */

type ActionData = {
  intent: "reply" | "state" | "cancel";
  ok: boolean;
  message: string | null;
  values?: ReplyValues;
  errors?: Record<string, string | undefined>;
  /** A new one per sent reply, so the emptied form replaces the typed one. */
  sentId?: string;
};

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireAdminAction(request);
  const form = await readForm(request);
  const ref = refOrNotFound(params);
  const db = getDb();
  const env = getEnv();
  const now = new Date();

  if (form.intent === "reply") {
    const values: ReplyValues = { body: form.body ?? "", markHandled: form.markHandled === "on" };
    const parsed = replySchema.safeParse(values);
    if (!parsed.success) {
      return data<ActionData>(
        {
          intent: "reply",
          ok: false,
          message: null,
          values,
          errors: fieldErrors(parsed.error),
        },
        { status: 400 },
      );
    }
    const result = await replyToInboxItem(db, ref, parsed.data, {
      staffId: staff.id,
      shopEmail: env.SHOP_EMAIL,
      now,
      timeZone: env.SHOP_TIME_ZONE,
    });
    if (!result.ok) throw data(NOT_FOUND, { status: 404 });
    return data<ActionData>({
      intent: "reply",
      ok: true,
      message: `Your reply was sent to ${result.to}${parsed.data.markHandled ? " and this is marked handled" : ""}.`,
      sentId: crypto.randomUUID(),
    });
  }

  if (form.intent === "handled" || form.intent === "reopen") {
    const handled = form.intent === "handled";
    const change = await setInboxItemHandled(db, ref, handled, { staffId: staff.id, now });
    if (change === "not-found") throw data(NOT_FOUND, { status: 404 });
    const message =
      change === "changed"
        ? handled
          ? "Marked as handled."
          : "Reopened: this is open again."
        : handled
          ? "Someone already marked this handled."
          : "This was already open.";
    return data<ActionData>({ intent: "state", ok: change === "changed", message });
  }

  if (form.intent === "cancel-booking" && ref.kind === "repair") {
    const result = await cancelAppointmentByShop(db, ref.id, {
      now,
      rules: bookingRules(env),
      staffId: staff.id,
    });
    if (!result.ok && result.reason === "not-found") throw data(NOT_FOUND, { status: 404 });
    return data<ActionData>(
      result.ok
        ? {
            intent: "cancel",
            ok: true,
            message: `The booking is cancelled; ${result.appointment.email} was sent the cancellation with a calendar update.`,
          }
        : { intent: "cancel", ok: false, message: result.message },
      { status: result.ok ? 200 : 409 },
    );
  }

  return data({ error: "Unknown action." }, { status: 400 });
}

type LoaderData = Route.ComponentProps["loaderData"];

function answerOf(actionData: Route.ComponentProps["actionData"]): ActionData | null {
  return actionData && "intent" in actionData ? actionData : null;
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted-foreground">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Details({ loaderData }: { loaderData: LoaderData }) {
  const { contact, repair } = loaderData;
  const email = <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>;
  return (
    <dl className="divide-y rounded-xl border bg-card px-4">
      {contact ? (
        <>
          <Detail term="From">{loaderData.name}</Detail>
          <Detail term="E-mail">{email}</Detail>
          <Detail term="Received">{loaderData.received}</Detail>
          <Detail term="Message">
            <span className="whitespace-pre-wrap">{contact.message}</span>
          </Detail>
        </>
      ) : null}
      {repair ? (
        <>
          <Detail term="Service">{repair.serviceType}</Detail>
          <Detail term="Appointment">{repair.slot}</Detail>
          <Detail term="Name">{loaderData.name}</Detail>
          <Detail term="E-mail">{email}</Detail>
          <Detail term="Phone">
            <a href={`tel:${repair.phone.replace(/[^\d+]/g, "")}`}>{repair.phone}</a>
          </Detail>
          <Detail term="Issue">
            <span className="whitespace-pre-wrap">{repair.issue}</span>
          </Detail>
          <Detail term="Booked at">{loaderData.received}</Detail>
          {repair.ticket ? (
            <Detail term="Repair ticket">
              <Link to={`/admin/repairs/${repair.ticket}`} className="text-primary underline">
                {repair.ticket}
              </Link>
            </Detail>
          ) : null}
          <Detail term="Status">
            {repair.cancelled
              ? `Cancelled by ${repair.cancelled.by} on ${repair.cancelled.at}`
              : repair.started
                ? "Booked (the appointment time has come)"
                : "Booked"}
          </Detail>
        </>
      ) : null}
    </dl>
  );
}

/** Cancelling a booking asks first: a dialog with JavaScript, a step of the page without. */
function CancelBooking({
  loaderData,
  answer,
}: {
  loaderData: LoaderData;
  answer: ActionData | null;
}) {
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState(false);
  const busy = navigation.state === "submitting";
  useEffect(() => {
    if (answer?.intent === "cancel") setConfirming(false);
  }, [answer]);
  const repair = loaderData.repair;
  if (!repair?.cancellable) return null;
  const question = `Cancel ${loaderData.name}'s ${repair.serviceType} appointment on ${repair.slot}? They will get an e-mail with a calendar update that removes it.`;
  const confirmForm = (
    <Form method="post" className="contents">
      <input type="hidden" name="intent" value="cancel-booking" />
      <Button type="submit" variant="destructive" disabled={busy}>
        Cancel booking
      </Button>
    </Form>
  );
  if (repair.confirmCancel) {
    return (
      <div className="mt-4 rounded-xl border border-destructive/40 p-4">
        <p className="font-medium">{question}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          {confirmForm}
          <Link
            to={`/admin/inbox/${loaderData.ref.kind}/${loaderData.ref.id}`}
            className={buttonVariants({ variant: "outline" })}
          >
            Keep the booking
          </Link>
        </div>
      </div>
    );
  }
  return (
    <>
      <Form
        method="get"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <input type="hidden" name="confirm" value="cancel" />
        <Button type="submit" variant="outline">
          Cancel booking…
        </Button>
      </Form>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancel this booking?</DialogTitle>
            <DialogDescription>{question}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Keep the booking
              </Button>
            </DialogClose>
            {confirmForm}
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

function ItemState({ loaderData, answer }: { loaderData: LoaderData; answer: ActionData | null }) {
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

function ReplyForm({ loaderData, answer }: { loaderData: LoaderData; answer: ActionData | null }) {
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "reply";
  const reply = answer?.intent === "reply" ? answer : null;
  const errors = reply?.errors ?? {};
  const values = reply?.values;
  return (
    <section aria-labelledby="inbox-reply" className="mt-8">
      <h2 id="inbox-reply" className="text-lg font-semibold">
        Reply by e-mail
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">To {loaderData.email}</p>
      {reply?.ok && reply.message ? (
        <div className="mt-3">
          <FormMessage tone="success">{reply.message}</FormMessage>
        </div>
      ) : null}
      {/* The key empties the form after a reply is sent; on errors it keeps what was typed. */}
      <Form
        key={reply?.sentId ?? "reply"}
        method="post"
        noValidate
        className="mt-3 flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="reply" />
        <TextareaField
          label="Your reply"
          name="body"
          rows={6}
          required
          maxLength={5000}
          defaultValue={values?.body}
          error={errors.body}
        />
        {loaderData.handled ? null : (
          <CheckboxField
            label="Mark as handled"
            name="markHandled"
            defaultChecked={values?.markHandled ?? true}
          />
        )}
        <div>
          <Button type="submit" disabled={sending}>
            {sending ? "Sending…" : "Send reply"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

export default function InboxItemPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = answerOf(actionData);
  const { repair } = loaderData;
  return (
    <>
      <BackLink to="/admin/inbox">Back to Inbox</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold">{loaderData.heading}</h1>
        <Badge variant={loaderData.handled ? "success" : "secondary"}>
          {loaderData.handled ? "Handled" : "Open"}
        </Badge>
        {repair?.cancelled ? <Badge variant="outline">Cancelled</Badge> : null}
      </div>
      <div className="mt-6">
        <Details loaderData={loaderData} />
      </div>
      <ItemState loaderData={loaderData} answer={answer} />
      <section aria-labelledby="inbox-replies" className="mt-8">
        <h2 id="inbox-replies" className="text-lg font-semibold">
          Replies
        </h2>
        {loaderData.replies.length ? (
          <ol className="mt-3 flex flex-col gap-3">
            {loaderData.replies.map((reply) => (
              <li key={reply.id} className="rounded-xl border bg-card p-4">
                <p className="text-sm text-muted-foreground">
                  {reply.sentByName} · {reply.sent}
                </p>
                <p className="mt-2 whitespace-pre-wrap">{reply.body}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-2 text-muted-foreground">No replies yet.</p>
        )}
      </section>
      <ReplyForm loaderData={loaderData} answer={answer} />
    </>
  );
}
