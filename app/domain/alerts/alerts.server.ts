// Stock alerts: a shopper asks to be told when a sold-out title is back or a Coming Soon entry
// is released. A signed-in customer's alert is active at once; a visitor's only once they follow
// the link e-mailed to the address (the message carries nothing the visitor typed). The database
// makes waiting alerts due in the transaction that brings the stock back (migration 0023), and
// the sender here mails each due alert once, with a one-click unsubscribe (RFC 8058).
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { Database, Transaction } from "#app/db/client.server.ts";
import { comingSoon, regularTitles, stockAlerts } from "#app/db/schema.ts";
import {
  addressLimitKey,
  consumeLimit,
  type Limit,
} from "#app/domain/accounts/rate-limit.server.ts";
import { queueMail, queueMails } from "#app/domain/mail/outbox.server.ts";
import type { OutgoingMail } from "#app/emails/outgoing-mail.ts";
import { alertConfirmable, daysBefore, RETENTION_DAYS } from "#app/domain/retention/periods.ts";
import { alertConfirmMessage, backInStockMessage } from "#app/emails/alert-emails.ts";
import { refuse, type Done, type Refusal } from "#app/lib/reply.server.ts";
import { isSignedLink, signLink } from "#app/lib/signed-link.server.ts";
import { ALERT_LINK_EXPIRED, type AlertKind, type AlertStatus } from "./status.ts";

export type AlertLinks = { publicUrl: string; secret: string };

/** Alerts asked for from one client address, and confirmation e-mails to one address. */
export const ALERT_LIMITS = {
  perClient: { windowSeconds: 60 * 60, max: 30 },
  perAddress: { windowSeconds: 60 * 60, max: 5 },
} satisfies Record<string, Limit>;

const PURPOSE = "stock-alert";

/** The token of an alert's links (confirm, unsubscribe): its id signed with the shop's secret. */
export function alertToken(id: number, secret: string): string {
  return signLink(PURPOSE, [id], secret);
}

export function isAlertToken(id: number, token: string, secret: string): boolean {
  return isSignedLink(PURPOSE, [id], token, secret);
}

export const alertConfirmPath = (id: number, secret: string) =>
  `/alerts/confirm/${id}/${alertToken(id, secret)}`;
export const alertUnsubscribePath = (id: number, secret: string) =>
  `/alerts/unsubscribe/${id}/${alertToken(id, secret)}`;

export type AlertResult =
  | Done
  | (Refusal<"not-found" | "conflict" | "invalid" | "rate-limited" | "expired"> & {
      retryAfterSeconds?: number;
    });

const CHECK_MAIL = "Check your e-mail: follow the link in it to confirm your alert.";

type Target = { kind: AlertKind; id: number };

/** What an alert waits for, as the shop names it, and whether it is on sale now. */
type Found = Target & { title: string; inStock: boolean; released: boolean };

/**
 * What the alert is about, as the shop names it; null if there is no such title or entry. A
 * Coming Soon entry that staff linked to its catalogue title (kept on the row) is out: what it
 * waits for is that title's stock. Read `for key share`: staff cannot delete or link it until the
 * signup's transaction ends, so the alert is stored as things stand when it commits, and stock
 * changes are not held up.
 */
async function targetOf(tx: Database | Transaction, target: Target): Promise<Found | null> {
  if (target.kind === "restock") {
    const [title] = await tx
      .select({ title: regularTitles.title, quantity: regularTitles.qtyToList })
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, target.id))
      .for("key share");
    return title
      ? { ...target, title: title.title, inStock: title.quantity > 0, released: false }
      : null;
  }
  const [entry] = await tx
    .select({ title: comingSoon.title, regSerialNo: comingSoon.regSerialNo })
    .from(comingSoon)
    .where(eq(comingSoon.id, target.id))
    .for("key share");
  if (!entry) return null;
  const linked =
    entry.regSerialNo === null
      ? null
      : await targetOf(tx, { kind: "restock", id: entry.regSerialNo });
  if (linked) return { ...linked, released: true };
  return { ...target, title: entry.title, inStock: false, released: false };
}

/**
 * Asks for an alert. `account`: the signed-in customer (their confirmed address, active at once);
 * otherwise `email` is a visitor's, stored unconfirmed with a confirmation link sent to it. The
 * answer to a visitor is the same whether or not the address already had an alert. On a Coming
 * Soon entry already linked to its title, the alert is that title's back-in-stock alert, and the
 * answer says so (decision 012).
 */
export async function subscribe(
  db: Database,
  input: Target & {
    account: { userId: string; email: string } | null;
    email: string | null;
    clientIp: string;
  },
  options: { links: AlertLinks },
): Promise<AlertResult> {
  const client = await consumeLimit(db, `alert:client:${input.clientIp}`, ALERT_LIMITS.perClient);
  if (!client.allowed) {
    return {
      ok: false,
      reason: "rate-limited",
      message: "Too many alerts from your connection. Please try again later.",
      retryAfterSeconds: client.retryAfterSeconds,
    };
  }
  const email = (input.account?.email ?? input.email ?? "").trim().toLowerCase();
  if (!email) return refuse("invalid", "Please enter your email.");
  return db.transaction(async (tx): Promise<AlertResult> => {
    const found = await targetOf(tx, input);
    if (!found) return refuse("not-found", "There is no such title.");
    if (found.inStock) {
      return refuse(
        "conflict",
        found.released
          ? `${found.title} is out now: add it to your cart.`
          : "It is in stock now: add it to your cart.",
      );
    }
    const values = {
      kind: found.kind,
      email,
      userId: input.account?.userId ?? null,
      regSerialNo: found.kind === "restock" ? found.id : null,
      comingSoonId: found.kind === "release" ? found.id : null,
      title: found.title,
    };
    if (input.account) {
      const done = {
        ok: true as const,
        message:
          found.kind === "restock"
            ? `We will e-mail you when ${found.title} is back in stock.`
            : `We will e-mail you when ${found.title} is released.`,
      };
      const [existing] = await waitingAlert(tx, values);
      if (existing?.status === "unconfirmed") {
        await tx
          .update(stockAlerts)
          .set({ status: "active", confirmedAt: new Date(), userId: input.account.userId })
          .where(eq(stockAlerts.id, existing.id));
        return done;
      }
      if (existing) return done;
      await tx
        .insert(stockAlerts)
        .values({ ...values, status: "active", confirmedAt: new Date() })
        .onConflictDoNothing();
      return done;
    }
    const address = await consumeLimit(
      tx,
      addressLimitKey("alert:address", email),
      ALERT_LIMITS.perAddress,
    );
    // Past the address's limit nothing is sent, and the answer does not say so.
    if (!address.allowed) return { ok: true, message: CHECK_MAIL };
    const [existing] = await waitingAlert(tx, values);
    if (existing?.status === "active") return { ok: true, message: CHECK_MAIL };
    // Asked again: the same alert, and its link works for a full window from now.
    if (existing) {
      await tx
        .update(stockAlerts)
        .set({ createdAt: new Date() })
        .where(eq(stockAlerts.id, existing.id));
    }
    const id =
      existing?.id ??
      (
        await tx
          .insert(stockAlerts)
          .values({ ...values, status: "unconfirmed" })
          .returning()
      )[0]!.id;
    const message = alertConfirmMessage({
      kind: found.kind,
      title: found.title,
      confirmUrl: new URL(
        alertConfirmPath(id, options.links.secret),
        options.links.publicUrl,
      ).toString(),
    });
    await queueMail({ to: email, ...message }, { tx });
    return { ok: true, message: CHECK_MAIL };
  });
}

/**
 * The address's alert for this title or entry still waiting (unconfirmed or active), if any,
 * locked: one the retention sweep is deleting at this moment is waited for and then not found.
 */
function waitingAlert(
  tx: Transaction,
  values: {
    kind: AlertKind;
    email: string;
    regSerialNo: number | null;
    comingSoonId: number | null;
  },
) {
  return tx
    .select({ id: stockAlerts.id, status: stockAlerts.status })
    .from(stockAlerts)
    .where(
      and(
        eq(stockAlerts.kind, values.kind),
        eq(stockAlerts.email, values.email),
        values.kind === "restock"
          ? eq(stockAlerts.regSerialNo, values.regSerialNo!)
          : eq(stockAlerts.comingSoonId, values.comingSoonId!),
        inArray(stockAlerts.status, ["unconfirmed", "active"]),
      ),
    )
    .for("update");
}

/** The alert a signed link names; null if the token is not its own. */
export async function alertByLink(db: Database, id: number, token: string, secret: string) {
  if (!Number.isSafeInteger(id) || id < 1 || !isAlertToken(id, token, secret)) return null;
  const [alert] = await db.select().from(stockAlerts).where(eq(stockAlerts.id, id));
  return alert ?? null;
}

/**
 * The visitor followed the link: the alert waits from now on. If the title came back (or the
 * entry was released) in the meantime, it is due at once.
 */
export async function confirmAlert(
  db: Database,
  input: { id: number; token: string },
  options: { secret: string; now?: Date },
): Promise<AlertResult> {
  const alert = await alertByLink(db, input.id, input.token, options.secret);
  if (!alert) return refuse("not-found", "This link is not valid.");
  if (alert.status === "unsubscribed") {
    return refuse("conflict", "This alert was cancelled.");
  }
  if (alert.status !== "unconfirmed") {
    return { ok: true, message: `Your alert for ${alert.title} is confirmed.` };
  }
  const now = options.now ?? new Date();
  if (!alertConfirmable(alert.createdAt, now)) {
    return refuse("expired", ALERT_LINK_EXPIRED);
  }
  const found = alert.regSerialNo
    ? await targetOf(db, { kind: "restock", id: alert.regSerialNo })
    : null;
  const dueNow = alert.regSerialNo !== null && (alert.kind === "release" || found?.inStock);
  const [confirmed] = await db
    .update(stockAlerts)
    .set(
      dueNow
        ? { status: "due", confirmedAt: now, dueAt: now }
        : { status: "active", confirmedAt: now },
    )
    .where(
      and(
        eq(stockAlerts.id, alert.id),
        eq(stockAlerts.status, "unconfirmed"),
        gt(stockAlerts.createdAt, daysBefore(now, RETENTION_DAYS.unconfirmedAlert)),
      ),
    )
    .returning({ id: stockAlerts.id });
  // Changed meanwhile: confirmed by another press (fine), or gone with the retention sweep.
  if (!confirmed) {
    const [still] = await db
      .select({ status: stockAlerts.status })
      .from(stockAlerts)
      .where(eq(stockAlerts.id, alert.id));
    if (!still) return refuse("not-found", "This link is not valid.");
    if (still.status === "unconfirmed" || still.status === "unsubscribed") {
      return refuse("expired", ALERT_LINK_EXPIRED);
    }
  }
  return {
    ok: true,
    message:
      alert.kind === "restock"
        ? `Your alert is confirmed: we will e-mail you when ${alert.title} is back in stock.`
        : `Your alert is confirmed: we will e-mail you when ${alert.title} is released.`,
  };
}

/** Stops an alert (from its e-mail's link, one click, or from My Account). Idempotent. */
export async function unsubscribe(db: Database, id: number, now = new Date()) {
  await db
    .update(stockAlerts)
    .set({ status: "unsubscribed", unsubscribedAt: now })
    .where(
      and(eq(stockAlerts.id, id), inArray(stockAlerts.status, ["unconfirmed", "active", "due"])),
    );
}

/**
 * The link in an alert e-mail (and its one-click POST, RFC 8058) stops every alert still
 * waiting for that address, as leaving a mailing list would: the e-mail's own alert has fired.
 */
export async function unsubscribeAddress(db: Database, email: string, now = new Date()) {
  await db
    .update(stockAlerts)
    .set({ status: "unsubscribed", unsubscribedAt: now })
    .where(
      and(
        eq(stockAlerts.email, email),
        inArray(stockAlerts.status, ["unconfirmed", "active", "due"]),
      ),
    );
}

/** How many alerts still wait for an address (unconfirmed, active or due). */
export async function waitingAlertsOf(db: Database, email: string): Promise<number> {
  const [row] = await db
    .select({ waiting: count() })
    .from(stockAlerts)
    .where(
      and(
        eq(stockAlerts.email, email),
        inArray(stockAlerts.status, ["unconfirmed", "active", "due"]),
      ),
    );
  return row?.waiting ?? 0;
}

/** Alerts of a customer's own: asked while signed in, or for their address. */
function ofAccount(account: { userId: string; email: string }) {
  return or(
    eq(stockAlerts.userId, account.userId),
    eq(stockAlerts.email, account.email.toLowerCase()),
  );
}

/** The alert states My Account lists (unsubscribed ones are gone from it). */
const LISTED = ["unconfirmed", "active", "due", "sent"] as const;

/** A customer's own alerts (asked while signed in, or from their confirmed address). */
export async function alertsOfAccount(db: Database, account: { userId: string; email: string }) {
  return db
    .select({
      id: stockAlerts.id,
      kind: stockAlerts.kind,
      title: stockAlerts.title,
      status: stockAlerts.status,
      regSerialNo: stockAlerts.regSerialNo,
      createdAt: stockAlerts.createdAt,
      sentAt: stockAlerts.sentAt,
    })
    .from(stockAlerts)
    .where(and(ofAccount(account), inArray(stockAlerts.status, [...LISTED])))
    .orderBy(desc(stockAlerts.createdAt))
    .limit(100);
}

/** Stops one of the customer's own alerts; false if it is not theirs. */
export async function unsubscribeOwn(
  db: Database,
  account: { userId: string; email: string },
  id: number,
): Promise<boolean> {
  const [own] = await db
    .select({ id: stockAlerts.id })
    .from(stockAlerts)
    .where(
      and(eq(stockAlerts.id, id), ofAccount(account), inArray(stockAlerts.status, [...LISTED])),
    );
  if (own) await unsubscribe(db, id);
  return Boolean(own);
}

/**
 * Staff link a Coming Soon entry to its title, now in the catalogue: the entry's waiting release
 * alerts are due at once (confirmed ones) or will be when confirmed; `retire` removes the entry
 * from the Coming Soon row in the same transaction, and otherwise the entry keeps the link.
 */
export async function linkComingSoon(
  db: Database,
  input: { comingSoonId: number; regSerialNo: number; retire: boolean },
  now = new Date(),
): Promise<AlertResult & { alerts?: number; retiredPoster?: string }> {
  return db.transaction(async (tx) => {
    const [entry] = await tx
      .select()
      .from(comingSoon)
      .where(eq(comingSoon.id, input.comingSoonId))
      .for("update");
    if (!entry) {
      return refuse("not-found", "There is no such entry.");
    }
    const [title] = await tx
      .select({ title: regularTitles.title })
      .from(regularTitles)
      .where(eq(regularTitles.regSerialNo, input.regSerialNo));
    if (!title) {
      return refuse(
        "invalid",
        `There is no regular title with serial number ${input.regSerialNo}.`,
      );
    }
    const due = await tx
      .update(stockAlerts)
      .set({ regSerialNo: input.regSerialNo, status: "due", dueAt: now })
      .where(
        and(
          eq(stockAlerts.kind, "release"),
          eq(stockAlerts.comingSoonId, entry.id),
          eq(stockAlerts.status, "active"),
        ),
      )
      .returning({ id: stockAlerts.id });
    // The rest go to the title too: an unconfirmed one is due once confirmed, and every one
    // outlives the entry should it retire.
    await tx
      .update(stockAlerts)
      .set({ regSerialNo: input.regSerialNo })
      .where(
        and(
          eq(stockAlerts.kind, "release"),
          eq(stockAlerts.comingSoonId, entry.id),
          inArray(stockAlerts.status, ["unconfirmed", "unsubscribed"]),
        ),
      );
    if (input.retire) await tx.delete(comingSoon).where(eq(comingSoon.id, entry.id));
    // Kept on the row, the entry remembers its title: a signup there from now on waits for the
    // title's stock (`targetOf`), since its release has happened.
    else {
      await tx
        .update(comingSoon)
        .set({ regSerialNo: input.regSerialNo })
        .where(eq(comingSoon.id, entry.id));
    }
    const alerts = due.length;
    return {
      ok: true as const,
      alerts,
      // The retired entry's poster, for the caller to remove its files once nothing shows it.
      ...(input.retire ? { retiredPoster: entry.posterUrl } : {}),
      message: `${entry.title} is linked to ${title.title}; ${alerts === 1 ? "1 release alert" : `${alerts} release alerts`} will go out.${input.retire ? " The entry is off the Coming Soon list." : ` The entry stays on Coming Soon and leads to ${title.title}.`}`,
    };
  });
}

/**
 * A Coming Soon entry is being deleted in `tx`: the release alerts that wait for it alone (not
 * yet on a catalogue title, so nothing could ever fire them) end with it, deleted whatever their
 * state; nobody is e-mailed. Returns how many were confirmed and waiting: the people who will not
 * be told. Alerts already on a title (the entry was linked) stay, and outlive the entry.
 */
export async function endReleaseAlerts(tx: Transaction, comingSoonId: number): Promise<number> {
  const ended = await tx
    .delete(stockAlerts)
    .where(
      and(
        eq(stockAlerts.kind, "release"),
        eq(stockAlerts.comingSoonId, comingSoonId),
        isNull(stockAlerts.regSerialNo),
      ),
    )
    .returning({ status: stockAlerts.status });
  return ended.filter((alert) => alert.status === "active").length;
}

/**
 * Mails due alerts, `batch` at a time, each once: the rows are claimed with `for update skip
 * locked` (several processes can send at once) and marked sent in the transaction that queues
 * their e-mails. Returns how many were mailed.
 */
export async function sendDueAlerts(
  db: Database,
  options: { links: AlertLinks; batch?: number; now?: Date },
): Promise<number> {
  let sent = 0;
  for (;;) {
    const mailed = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          id: stockAlerts.id,
          kind: stockAlerts.kind,
          email: stockAlerts.email,
          title: regularTitles.title,
          serialNo: regularTitles.regSerialNo,
          priceCents: regularTitles.currentPriceCents,
        })
        .from(stockAlerts)
        .innerJoin(regularTitles, eq(regularTitles.regSerialNo, stockAlerts.regSerialNo))
        .where(eq(stockAlerts.status, "due"))
        .orderBy(asc(stockAlerts.dueAt), asc(stockAlerts.id))
        .limit(options.batch ?? 500)
        .for("update", { of: stockAlerts, skipLocked: true });
      if (due.length === 0) return 0;
      const mails: OutgoingMail[] = due.map((alert) => {
        const unsubscribeUrl = new URL(
          alertUnsubscribePath(alert.id, options.links.secret),
          options.links.publicUrl,
        ).toString();
        return {
          to: alert.email,
          ...backInStockMessage({
            kind: alert.kind,
            title: alert.title,
            priceCents: alert.priceCents,
            titleUrl: new URL(`/movies/${alert.serialNo}`, options.links.publicUrl).toString(),
            unsubscribeUrl,
            manageUrl: new URL("/account?section=alerts", options.links.publicUrl).toString(),
          }),
          headers: {
            "List-Unsubscribe": `<${unsubscribeUrl}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        };
      });
      await queueMails(mails, { tx });
      await tx
        .update(stockAlerts)
        .set({ status: "sent", sentAt: options.now ?? new Date() })
        .where(
          inArray(
            stockAlerts.id,
            due.map((alert) => alert.id),
          ),
        );
      return due.length;
    });
    sent += mailed;
    if (mailed === 0) return sent;
  }
}

/**
 * Sends due alerts every `intervalMs` in this process (every process may run it). Returns a
 * function that stops it.
 */
export function startAlertSender(
  db: Database,
  options: { links: AlertLinks; intervalMs?: number; onError?: (error: unknown) => void },
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sendDueAlerts(db, { links: options.links })
      .catch((error: unknown) => (options.onError ?? console.error)(error))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 2000);
  timer.unref();
  return () => clearInterval(timer);
}

export type WantedTitle = {
  kind: AlertKind;
  title: string;
  /** The title's serial number (restock), or the Coming Soon entry's id (release). */
  id: number;
  waiting: number;
};

/** Active release alerts still on a Coming Soon entry: the people waiting for it. */
const waitingForRelease = () =>
  and(
    eq(stockAlerts.kind, "release"),
    eq(stockAlerts.status, "active"),
    isNotNull(stockAlerts.comingSoonId),
  );

/** What people wait for most: waiting alerts per title and per Coming Soon entry. */
export async function mostWanted(db: Database, limit = 10): Promise<WantedTitle[]> {
  const [restock, release] = await Promise.all([
    db
      .select({ id: regularTitles.regSerialNo, title: regularTitles.title, waiting: count() })
      .from(stockAlerts)
      .innerJoin(regularTitles, eq(regularTitles.regSerialNo, stockAlerts.regSerialNo))
      .where(and(eq(stockAlerts.kind, "restock"), eq(stockAlerts.status, "active")))
      .groupBy(regularTitles.regSerialNo, regularTitles.title)
      .orderBy(desc(count()), asc(regularTitles.title))
      .limit(limit),
    db
      .select({ id: comingSoon.id, title: comingSoon.title, waiting: count() })
      .from(stockAlerts)
      .innerJoin(comingSoon, eq(comingSoon.id, stockAlerts.comingSoonId))
      .where(waitingForRelease())
      .groupBy(comingSoon.id, comingSoon.title)
      .orderBy(desc(count()), asc(comingSoon.title))
      .limit(limit),
  ]);
  return [
    ...restock.map((row) => ({ kind: "restock" as const, ...row })),
    ...release.map((row) => ({ kind: "release" as const, ...row })),
  ]
    .sort((a, b) => b.waiting - a.waiting || a.title.localeCompare(b.title))
    .slice(0, limit);
}

/** How many wait for each Coming Soon entry's release (active alerts), by entry id. */
export async function waitingForComingSoon(db: Database): Promise<Map<number, number>> {
  const rows = await db
    .select({ id: stockAlerts.comingSoonId, waiting: count() })
    .from(stockAlerts)
    .where(waitingForRelease())
    .groupBy(stockAlerts.comingSoonId);
  return new Map(rows.map((row) => [row.id!, row.waiting]));
}

export type { AlertStatus };
