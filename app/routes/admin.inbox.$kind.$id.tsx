import { BackLink } from "#app/components/back-link.tsx";
import { data } from "react-router";
import { InboxDetails } from "#app/components/admin/inbox/inbox-details.tsx";
import type { InboxAnswer } from "#app/components/admin/inbox/inbox-item.ts";
import { ItemState } from "#app/components/admin/inbox/item-state.tsx";
import { Replies, ReplyForm } from "#app/components/admin/inbox/replies.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
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
import { formatAppointment } from "#app/lib/shop-time.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import { replySchema, type ReplyValues } from "#app/domain/inbox/reply-input.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.inbox.$kind.$id";
import { usePageAnswer } from "#app/components/use-page-answer.ts";

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
  await requireStaff(request, "inbox");
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

type ActionData = InboxAnswer;

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaffAction(request, "inbox");
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

  return reply.unknownAction();
}

function answerOf(actionData: Route.ComponentProps["actionData"]): ActionData | null {
  return actionData && "intent" in actionData ? actionData : null;
}

export default function InboxItemPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = answerOf(usePageAnswer(actionData));
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
        <InboxDetails loaderData={loaderData} />
      </div>
      <ItemState loaderData={loaderData} answer={answer} />
      <Replies replies={loaderData.replies} />
      <ReplyForm loaderData={loaderData} answer={answer} />
    </>
  );
}
