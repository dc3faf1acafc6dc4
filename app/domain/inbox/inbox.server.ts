import { and, asc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { contacts, inboxReplies, serviceRequests, users } from "#app/db/schema.ts";
import { pageWindow } from "#app/domain/admin/lists.server.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { formatAppointment } from "#app/lib/shop-time.ts";
import { inboxReplyMessage, type RepliedItem } from "#app/emails/inbox-emails.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";

/**
 * The back-office inbox: contact messages and repair requests in one list. An item is open until
 * a staff member marks it handled; it is unread until one first opens it. A repair booking
 * reaches the inbox only once confirmed: until then it may be a stranger's, made with someone
 * else's address, and past its window it is nobody's.
 */

export type InboxKind = "contact" | "repair";
export type InboxState = "open" | "handled" | "all";
export type InboxFilter = { kind: InboxKind | "all"; state: InboxState; page: number };
export type InboxRef = { kind: InboxKind; id: number };

/** `?kind=contact|repair&state=open|handled|all&page=N`, anything else read as the default. */
export function inboxFilter(params: URLSearchParams): InboxFilter {
  const kind = params.get("kind");
  const state = params.get("state");
  const page = positiveInt(params.get("page")) ?? 1;
  return {
    kind: kind === "contact" || kind === "repair" ? kind : "all",
    state: state === "handled" || state === "all" ? state : "open",
    page,
  };
}

/** The `:kind/:id` of an item's page, or null when it cannot name one. */
export function inboxRef(kind: string | undefined, id: string | undefined): InboxRef | null {
  const number = positiveInt(id);
  if ((kind !== "contact" && kind !== "repair") || !number || number > 2_147_483_647) return null;
  return { kind, id: number };
}

export type InboxRow = {
  kind: InboxKind;
  id: number;
  name: string;
  email: string;
  /** A line about the item: the start of the message or issue, or a repair's service and slot. */
  subject: string;
  createdAt: Date;
  unread: boolean;
  handled: boolean;
  /** A repair booking cancelled by the customer or the shop. */
  cancelled: boolean;
};

export type InboxCounts = Record<InboxKind, Record<"open" | "handled", number>>;

export type InboxList = {
  rows: InboxRow[];
  /** How many items each choice of the filter would show, the other choice kept. */
  kindCounts: Record<InboxKind | "all", number>;
  stateCounts: Record<InboxState, number>;
  total: number;
  page: number;
  pageCount: number;
};

/** Messages and issues are cut to this many characters for the list's subject line. */
export const SUBJECT_LENGTH = 80;

export function subjectLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > SUBJECT_LENGTH ? `${line.slice(0, SUBJECT_LENGTH - 1).trimEnd()}…` : line;
}

export async function inboxCounts(db: Database): Promise<InboxCounts> {
  const { rows } = await db.execute<{
    contact_open: number;
    contact_handled: number;
    repair_open: number;
    repair_handled: number;
  }>(sql`
    select (select count(*) from contacts where handled_at is null)::int as contact_open,
           (select count(*) from contacts where handled_at is not null)::int as contact_handled,
           (select count(*) from service_requests
             where handled_at is null and confirmed_at is not null)::int as repair_open,
           (select count(*) from service_requests
             where handled_at is not null and confirmed_at is not null)::int as repair_handled`);
  const row = rows[0]!;
  return {
    contact: { open: row.contact_open, handled: row.contact_handled },
    repair: { open: row.repair_open, handled: row.repair_handled },
  };
}

function countOf(counts: InboxCounts, kind: InboxKind | "all", state: InboxState): number {
  const kinds: InboxKind[] = kind === "all" ? ["contact", "repair"] : [kind];
  const states: ("open" | "handled")[] = state === "all" ? ["open", "handled"] : [state];
  return kinds.reduce((sum, k) => sum + states.reduce((inner, s) => inner + counts[k][s], 0), 0);
}

type UnionRow = {
  kind: InboxKind;
  id: number;
  name: string;
  email: string;
  text: string;
  service_type: string | null;
  starts_at: string | null;
  created_at: string;
  unread: boolean;
  handled: boolean;
  cancelled: boolean;
};

/**
 * One page of the inbox, newest first: both tables in one UNION ALL, each part filtered by its
 * own (indexed) columns, ordered by arrival and then by kind and id so pages never overlap.
 */
export async function listInbox(
  db: Database,
  filter: InboxFilter,
  options: { timeZone: string },
): Promise<InboxList> {
  const counts = await inboxCounts(db);
  const total = countOf(counts, filter.kind, filter.state);
  const { page, pageCount, offset, limit } = pageWindow(total, filter.page);
  const state =
    filter.state === "open"
      ? sql`handled_at is null`
      : filter.state === "handled"
        ? sql`handled_at is not null`
        : sql`true`;
  const parts: SQL[] = [];
  if (filter.kind !== "repair") {
    parts.push(sql`
      select 'contact' as kind, id, name, email, left(message, 300) as text,
             null::text as service_type, null::timestamptz as starts_at, created_at,
             read_at is null as unread, handled_at is not null as handled, false as cancelled
      from contacts where ${state}`);
  }
  if (filter.kind !== "contact") {
    parts.push(sql`
      select 'repair' as kind, id, name, email, left(issue, 300) as text,
             service_type, starts_at, created_at,
             read_at is null as unread, handled_at is not null as handled,
             cancelled_at is not null as cancelled
      from service_requests where ${state} and confirmed_at is not null`);
  }
  const { rows } = await db.execute<UnionRow>(sql`
    select * from (${sql.join(parts, sql` union all `)}) as items
    order by created_at desc, kind, id desc
    limit ${limit} offset ${offset}`);
  return {
    rows: rows.map((row) => ({
      kind: row.kind,
      id: row.id,
      name: row.name,
      email: row.email,
      subject:
        row.kind === "repair"
          ? `${row.service_type} · ${formatShopDateTime(new Date(row.starts_at!), options.timeZone)}`
          : subjectLine(row.text),
      createdAt: new Date(row.created_at),
      unread: row.unread,
      handled: row.handled,
      cancelled: row.cancelled,
    })),
    kindCounts: {
      all: countOf(counts, "all", filter.state),
      contact: countOf(counts, "contact", filter.state),
      repair: countOf(counts, "repair", filter.state),
    },
    stateCounts: {
      open: countOf(counts, filter.kind, "open"),
      handled: countOf(counts, filter.kind, "handled"),
      all: countOf(counts, filter.kind, "all"),
    },
    total,
    page,
    pageCount,
  };
}

type ItemState = {
  id: number;
  name: string;
  email: string;
  createdAt: Date;
  readAt: Date | null;
  handledAt: Date | null;
  /** The staff member's name; null once their account is gone. */
  handledByName: string | null;
};

export type InboxItem =
  | (ItemState & { kind: "contact"; message: string })
  | (ItemState & {
      kind: "repair";
      phone: string;
      serviceType: string;
      issue: string;
      preferredDate: string;
      preferredTime: string;
      startsAt: Date;
      status: string;
      cancelledAt: Date | null;
      cancelledBy: "customer" | "shop" | null;
    });

export type InboxReply = { id: number; body: string; sentByName: string; createdAt: Date };

function inboxTable(kind: InboxKind) {
  return kind === "contact" ? contacts : serviceRequests;
}

/** The row of an item staff may see: any contact message, a repair booking once confirmed. */
function isInboxItem(ref: InboxRef): SQL {
  return ref.kind === "contact"
    ? eq(contacts.id, ref.id)
    : and(eq(serviceRequests.id, ref.id), isNotNull(serviceRequests.confirmedAt))!;
}

export async function getInboxItem(db: Database, ref: InboxRef): Promise<InboxItem | null> {
  if (ref.kind === "contact") {
    const [row] = await db
      .select({
        id: contacts.id,
        name: contacts.name,
        email: contacts.email,
        message: contacts.message,
        createdAt: contacts.createdAt,
        readAt: contacts.readAt,
        handledAt: contacts.handledAt,
        handledByName: users.name,
      })
      .from(contacts)
      .leftJoin(users, eq(users.id, contacts.handledBy))
      .where(eq(contacts.id, ref.id));
    return row ? { kind: "contact", ...row } : null;
  }
  const [row] = await db
    .select({
      id: serviceRequests.id,
      name: serviceRequests.name,
      email: serviceRequests.email,
      phone: serviceRequests.phone,
      serviceType: serviceRequests.serviceType,
      issue: serviceRequests.issue,
      preferredDate: serviceRequests.preferredDate,
      preferredTime: serviceRequests.preferredTime,
      startsAt: serviceRequests.startsAt,
      status: serviceRequests.status,
      cancelledAt: serviceRequests.cancelledAt,
      cancelledBy: serviceRequests.cancelledBy,
      createdAt: serviceRequests.createdAt,
      readAt: serviceRequests.readAt,
      handledAt: serviceRequests.handledAt,
      handledByName: users.name,
    })
    .from(serviceRequests)
    .leftJoin(users, eq(users.id, serviceRequests.handledBy))
    .where(isInboxItem(ref));
  return row ? { kind: "repair", ...row } : null;
}

/** The replies staff sent about an item, oldest first. */
export async function inboxRepliesOf(db: Database, ref: InboxRef): Promise<InboxReply[]> {
  return db
    .select({
      id: inboxReplies.id,
      body: inboxReplies.body,
      sentByName: inboxReplies.sentByName,
      createdAt: inboxReplies.createdAt,
    })
    .from(inboxReplies)
    .where(and(eq(inboxReplies.kind, ref.kind), eq(inboxReplies.itemId, ref.id)))
    .orderBy(asc(inboxReplies.createdAt), asc(inboxReplies.id));
}

/**
 * An item as a staff member opens it, with its replies. The first opening marks it read; later
 * ones (and other staff) leave that first time as it is.
 */
export async function openInboxItem(
  db: Database,
  ref: InboxRef,
  options: { now: Date },
): Promise<{ item: InboxItem; replies: InboxReply[] } | null> {
  const table = inboxTable(ref.kind);
  await db
    .update(table)
    .set({ readAt: options.now })
    .where(and(isInboxItem(ref), isNull(table.readAt)));
  const item = await getInboxItem(db, ref);
  if (!item) return null;
  return { item, replies: await inboxRepliesOf(db, ref) };
}

export type HandledChange = "changed" | "unchanged" | "not-found";

/**
 * Marks an item handled by a staff member, or open again. Conditional updates: of two staff
 * acting at once one changes it and the other is told it already was, so the first handler's
 * name is never overwritten.
 */
export async function setInboxItemHandled(
  db: Database,
  ref: InboxRef,
  handled: boolean,
  options: { staffId: string; now: Date },
): Promise<HandledChange> {
  const table = inboxTable(ref.kind);
  const changed = handled
    ? await db
        .update(table)
        .set({ handledAt: options.now, handledBy: options.staffId })
        .where(and(isInboxItem(ref), isNull(table.handledAt)))
        .returning({ id: table.id })
    : await db
        .update(table)
        .set({ handledAt: null, handledBy: null })
        .where(and(isInboxItem(ref), isNotNull(table.handledAt)))
        .returning({ id: table.id });
  if (changed.length) return "changed";
  const [exists] = await db.select({ id: table.id }).from(table).where(isInboxItem(ref));
  return exists ? "unchanged" : "not-found";
}

export type ReplyResult =
  { ok: true; to: string; handled: boolean } | { ok: false; reason: "not-found" };

/**
 * Answers an item by e-mail: the reply is kept with the item and the e-mail queued in one
 * transaction (both or neither), and, when asked, the item is marked handled in it too.
 */
export async function replyToInboxItem(
  db: Database,
  ref: InboxRef,
  reply: { body: string; markHandled: boolean },
  options: {
    /** The staff member replying; the reply and the e-mail carry their account's name. */
    staffId: string;
    /** SHOP_EMAIL: where the customer's answer goes. */
    shopEmail: string;
    now: Date;
    timeZone: string;
  },
): Promise<ReplyResult> {
  return db.transaction(async (tx): Promise<ReplyResult> => {
    const [staff] = await tx
      .select({ name: users.name })
      .from(users)
      .where(eq(users.id, options.staffId));
    if (!staff) throw new Error("Only a staff member's account can reply.");
    let to: string;
    let replied: RepliedItem;
    let handled: boolean;
    if (ref.kind === "contact") {
      const [row] = await tx
        .select({
          name: contacts.name,
          email: contacts.email,
          handledAt: contacts.handledAt,
        })
        .from(contacts)
        .where(isInboxItem(ref));
      if (!row) return { ok: false, reason: "not-found" };
      // Always the address the item came from: staff choose the words, never the recipient.
      to = row.email;
      replied = { kind: "contact", name: row.name };
      handled = row.handledAt !== null;
    } else {
      const [row] = await tx
        .select({
          name: serviceRequests.name,
          email: serviceRequests.email,
          serviceType: serviceRequests.serviceType,
          startsAt: serviceRequests.startsAt,
          handledAt: serviceRequests.handledAt,
        })
        .from(serviceRequests)
        .where(isInboxItem(ref));
      if (!row) return { ok: false, reason: "not-found" };
      to = row.email;
      replied = {
        kind: "repair",
        name: row.name,
        serviceType: row.serviceType,
        when: formatAppointment(row.startsAt, { timeZone: options.timeZone }),
      };
      handled = row.handledAt !== null;
    }
    await tx.insert(inboxReplies).values({
      kind: ref.kind,
      itemId: ref.id,
      body: reply.body,
      sentBy: options.staffId,
      sentByName: staff.name,
      createdAt: options.now,
    });
    await queueMail(
      {
        to,
        replyTo: options.shopEmail,
        ...inboxReplyMessage(replied, { body: reply.body, staffName: staff.name }),
      },
      { tx },
    );
    if (reply.markHandled && !handled) {
      const table = inboxTable(ref.kind);
      await tx
        .update(table)
        .set({ handledAt: options.now, handledBy: options.staffId })
        .where(and(eq(table.id, ref.id), isNull(table.handledAt)));
      handled = true;
    }
    return { ok: true, to, handled };
  });
}
