import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { comingSoon, regularTitles, stockAlerts } from "#app/db/schema.ts";
import { importCatalogCsv } from "#app/domain/catalog/catalog-csv.server.ts";
import { deleteComingSoon } from "#app/domain/catalog/coming-soon.server.ts";
import { placeOrder } from "#app/domain/orders/place-order.server.ts";
import { cancelOrder } from "#app/domain/orders/staff-actions.server.ts";
import {
  createCustomer,
  createRegularTitle,
  orderInput,
  regularStock,
  UNTAXED_PRICING,
} from "#tests/support/order-fixtures.ts";
import { createTestProvider } from "#app/domain/payments/test-provider.server.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { createStaff } from "#tests/support/staff.ts";
import { scratchOutbox } from "#tests/support/scratch-outbox.ts";
import {
  ALERT_LIMITS,
  alertToken,
  confirmAlert,
  linkComingSoon,
  mostWanted,
  sendDueAlerts,
  subscribe,
  unsubscribe,
  unsubscribeOwn,
  waitingForComingSoon,
} from "./alerts.server.ts";

// A database of its own: the bulk test queues 10,000 e-mails, which must not land in the queue
// that the mail worker tests in other files deliver from.
const scratch = scratchDatabase();
scratchOutbox(scratch);
let db: Database;
beforeAll(() => {
  db = scratch.db();
});
const links = { publicUrl: "http://shop.test", secret: "alerts-test-secret-of-32-characters!!" };
const pricing = UNTAXED_PRICING;

type QueuedMail = {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
};

async function mailsTo(to: string) {
  const { rows } = await db.execute<{ data: QueuedMail }>(
    sql`select data from pgboss.job where name = 'mail-send' and data->>'to' = ${to}
        order by created_on`,
  );
  return rows.map((row) => row.data);
}

const address = () => `alert-${randomUUID()}@example.test`;
const clientIp = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;

async function soldOutTitle() {
  return createRegularTitle(db, { qty: 0, priceCents: 1499 });
}

async function setStock(serialNo: number, qty: number) {
  await db
    .update(regularTitles)
    .set({ qtyToList: qty })
    .where(eq(regularTitles.regSerialNo, serialNo));
}

async function statusOf(email: string) {
  const rows = await db
    .select({ status: stockAlerts.status })
    .from(stockAlerts)
    .where(eq(stockAlerts.email, email));
  return rows.map((row) => row.status);
}

describe("stock alerts", () => {
  it("keep the links of confirmation e-mails already sent", () => {
    // Worked out with the signature the alert links have carried since they were first sent.
    expect(alertToken(77, "a-secret-of-thirty-two-characters!!")).toBe(
      "MyjIL3PBj4IlXBkjfA_juEs9tBqDiJEAO7oU63PNQno",
    );
  });

  it("a visitor's alert: confirmed by link, mailed once when the title is back, one-click unsubscribe", async () => {
    const title = await soldOutTitle();
    const email = address();
    const asked = await subscribe(
      db,
      { kind: "restock", id: title.serialNo, account: null, email, clientIp: clientIp() },
      { links },
    );
    expect(asked).toEqual({
      ok: true,
      message: "Check your e-mail: follow the link in it to confirm your alert.",
    });
    expect(await statusOf(email)).toEqual(["unconfirmed"]);
    const [confirmation] = await mailsTo(email);
    expect(confirmation!.subject).toBe("Confirm your Reel & Repair alert");
    const [, id, token] = /\/alerts\/confirm\/(\d+)\/([\w-]+)/.exec(confirmation!.text)!;

    // Not confirmed: a restock mails nothing.
    await setStock(title.serialNo, 1);
    expect(await sendDueAlerts(db, { links })).toBe(0);
    await setStock(title.serialNo, 0);

    expect(await confirmAlert(db, { id: Number(id), token: `x${token}` }, links)).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    expect((await confirmAlert(db, { id: Number(id), token: token! }, links)).ok).toBe(true);
    expect(await statusOf(email)).toEqual(["active"]);

    // Back in stock: due in the same transaction, mailed once however often the sender runs.
    await setStock(title.serialNo, 2);
    expect(await statusOf(email)).toEqual(["due"]);
    const sent = await Promise.all([sendDueAlerts(db, { links }), sendDueAlerts(db, { links })]);
    expect(sent.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const alerts = (await mailsTo(email)).filter((mail) => /back in stock/.test(mail.subject));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.text).toContain(`${title.title} is on our shelves at $14.99`);
    expect(alerts[0]!.text).toContain(`http://shop.test/movies/${title.serialNo}`);
    const unsubscribeUrl = `http://shop.test/alerts/unsubscribe/${id}/${alertToken(Number(id), links.secret)}`;
    expect(alerts[0]!.headers).toEqual({
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });

    // Sold out and back again: the alert fired once already.
    await setStock(title.serialNo, 0);
    await setStock(title.serialNo, 3);
    await sendDueAlerts(db, { links });
    expect(
      (await mailsTo(email)).filter((mail) => /back in stock/.test(mail.subject)),
    ).toHaveLength(1);
  });

  it("a visitor's confirmation link works for a week after they last asked, and asking again renews it", async () => {
    const title = await soldOutTitle();
    const email = address();
    const ask = () =>
      subscribe(
        db,
        { kind: "restock", id: title.serialNo, account: null, email, clientIp: clientIp() },
        { links },
      );
    await ask();
    const [pending] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, email));
    const token = alertToken(pending!.id, links.secret);
    const eightDaysOn = new Date(pending!.createdAt.getTime() + 8 * 24 * 60 * 60 * 1000);
    expect(
      await confirmAlert(db, { id: pending!.id, token }, { ...links, now: eightDaysOn }),
    ).toEqual({
      ok: false,
      reason: "expired",
      message: "This link has expired. Ask for the alert again on the title's page.",
    });
    expect(await statusOf(email)).toEqual(["unconfirmed"]);

    // Asked again a week later: the same alert, a new week for its link.
    await db
      .update(stockAlerts)
      .set({ createdAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
      .where(eq(stockAlerts.id, pending!.id));
    await ask();
    expect(await mailsTo(email)).toHaveLength(2);
    expect((await confirmAlert(db, { id: pending!.id, token }, links)).ok).toBe(true);
    expect(await statusOf(email)).toEqual(["active"]);
  });

  it("a signed-in customer's alert is active at once; an unsubscribed one never fires", async () => {
    const title = await soldOutTitle();
    const userId = await createCustomer(db);
    const email = `order-${userId}@example.test`;
    const account = { userId, email };
    const asked = await subscribe(
      db,
      { kind: "restock", id: title.serialNo, account, email: null, clientIp: clientIp() },
      { links },
    );
    expect(asked).toEqual({
      ok: true,
      message: `We will e-mail you when ${title.title} is back in stock.`,
    });
    // Asking twice keeps one alert.
    await subscribe(
      db,
      { kind: "restock", id: title.serialNo, account, email: null, clientIp: clientIp() },
      { links },
    );
    expect(await statusOf(email)).toEqual(["active"]);
    const [alert] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, email));
    await unsubscribe(db, alert!.id);
    await setStock(title.serialNo, 5);
    await sendDueAlerts(db, { links });
    expect(await mailsTo(email)).toEqual([]);
    // In stock now: nothing to wait for.
    expect(
      await subscribe(
        db,
        { kind: "restock", id: title.serialNo, account, email: null, clientIp: clientIp() },
        { links },
      ),
    ).toMatchObject({ ok: false, reason: "conflict" });
  });

  it("a customer stops any alert of their own, however many they have, and no one else's", async () => {
    const title = await soldOutTitle();
    const userId = await createCustomer(db);
    const account = { userId, email: `order-${userId}@example.test` };
    // A waiting alert older than the newest 100 that My Account lists (here, sent ones): it is
    // still theirs to stop.
    const started = Date.now() - 200 * 60_000;
    const mine = await db
      .insert(stockAlerts)
      .values(
        Array.from({ length: 101 }, (_, index) => ({
          kind: "restock" as const,
          email: account.email,
          userId,
          regSerialNo: title.serialNo,
          title: title.title,
          status: index === 0 ? ("active" as const) : ("sent" as const),
          createdAt: new Date(started + index * 60_000),
          sentAt: index === 0 ? null : new Date(started + index * 60_000),
        })),
      )
      .returning({ id: stockAlerts.id });
    const oldest = mine[0]!.id;
    expect(await unsubscribeOwn(db, account, oldest)).toBe(true);
    const [stopped] = await db.select().from(stockAlerts).where(eq(stockAlerts.id, oldest));
    expect(stopped!.status).toBe("unsubscribed");

    const otherEmail = address();
    const [theirs] = await db
      .insert(stockAlerts)
      .values({
        kind: "restock",
        email: otherEmail,
        regSerialNo: title.serialNo,
        title: title.title,
        status: "active",
      })
      .returning({ id: stockAlerts.id });
    expect(await unsubscribeOwn(db, account, theirs!.id)).toBe(false);
    expect(await statusOf(otherEmail)).toEqual(["active"]);
  });

  it("a cancelled order's restock alerts the waiting customers", async () => {
    const title = await createRegularTitle(db, { qty: 1, priceCents: 999 });
    const buyer = await createCustomer(db);
    const placed = await placeOrder(
      db,
      orderInput(buyer, [{ productType: "regular", serialNo: title.serialNo, quantity: 1 }]),
      pricing,
    );
    if (!placed.ok) throw new Error(placed.reason);
    expect(await regularStock(db, title.serialNo)).toBe(0);
    const waiting = await createCustomer(db);
    const email = `order-${waiting}@example.test`;
    await subscribe(
      db,
      {
        kind: "restock",
        id: title.serialNo,
        account: { userId: waiting, email },
        email: null,
        clientIp: clientIp(),
      },
      { links },
    );
    const staff = await createStaff(db, "Cal Cancel");
    const testProvider = createTestProvider({ appEnv: "local" });
    const cancelled = await cancelOrder(
      db,
      { orderId: placed.order.id },
      {
        staff,
        ordersUrl: "http://shop.test/orders",
        providers: () => testProvider,
      },
    );
    expect(cancelled.ok).toBe(true);
    expect(await statusOf(email)).toEqual(["due"]);
    await sendDueAlerts(db, { links });
    expect((await mailsTo(email)).map((mail) => mail.subject)).toEqual([
      `${title.title} is back in stock at Reel & Repair`,
    ]);
  });

  it("a Coming Soon entry linked to its new title sends the release alerts once, and can retire", async () => {
    const [entry] = await db
      .insert(comingSoon)
      .values({
        title: `Premiere ${randomUUID().slice(0, 8)}`,
        releaseDate: "2099-01-01",
        posterUrl: "/posters/none.webp",
      })
      .returning();
    const emails = [address(), address()];
    const ids = [];
    for (const email of emails) {
      await subscribe(
        db,
        { kind: "release", id: entry!.id, account: null, email, clientIp: clientIp() },
        { links },
      );
      const [alert] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, email));
      ids.push(alert!.id);
    }
    // One confirms, one does not (yet).
    await confirmAlert(db, { id: ids[0]!, token: alertToken(ids[0]!, links.secret) }, links);
    const wanted = await mostWanted(db, 100);
    expect(wanted).toContainEqual({
      kind: "release",
      id: entry!.id,
      title: entry!.title,
      waiting: 1,
    });

    // A serial number the catalogue does not have changes nothing.
    expect(
      await linkComingSoon(db, { comingSoonId: entry!.id, regSerialNo: 999_999_999, retire: true }),
    ).toMatchObject({ ok: false, reason: "invalid" });
    expect(await mostWanted(db, 100)).toContainEqual(
      expect.objectContaining({ kind: "release", id: entry!.id }),
    );

    const title = await createRegularTitle(db, { qty: 4, priceCents: 2499 });
    const linked = await linkComingSoon(db, {
      comingSoonId: entry!.id,
      regSerialNo: title.serialNo,
      retire: true,
    });
    expect(linked).toMatchObject({ ok: true, alerts: 1, retiredPoster: "/posters/none.webp" });
    expect(await db.select().from(comingSoon).where(eq(comingSoon.id, entry!.id))).toEqual([]);
    await sendDueAlerts(db, { links });
    expect((await mailsTo(emails[0]!)).map((mail) => mail.subject)).toContain(
      `${title.title} is out now at Reel & Repair`,
    );
    // The late confirmation: released already, so it is mailed at once.
    await confirmAlert(db, { id: ids[1]!, token: alertToken(ids[1]!, links.secret) }, links);
    await sendDueAlerts(db, { links });
    expect((await mailsTo(emails[1]!)).filter((mail) => /out now/.test(mail.subject))).toHaveLength(
      1,
    );
    expect((await mailsTo(emails[0]!)).filter((mail) => /out now/.test(mail.subject))).toHaveLength(
      1,
    );
  });

  it("a signup on an entry linked and kept on the row is its title's back-in-stock alert, and is mailed when it is back", async () => {
    const [entry] = await db
      .insert(comingSoon)
      .values({
        title: `Kept Premiere ${randomUUID().slice(0, 8)}`,
        releaseDate: "2099-01-01",
        posterUrl: "/posters/none.webp",
      })
      .returning();
    // Out, and sold out on its first day.
    const title = await soldOutTitle();
    expect(
      await linkComingSoon(db, {
        comingSoonId: entry!.id,
        regSerialNo: title.serialNo,
        retire: false,
      }),
    ).toMatchObject({ ok: true, alerts: 0 });

    const userId = await createCustomer(db);
    const account = { userId, email: `order-${userId}@example.test` };
    expect(
      await subscribe(
        db,
        { kind: "release", id: entry!.id, account, email: null, clientIp: clientIp() },
        { links },
      ),
    ).toEqual({ ok: true, message: `We will e-mail you when ${title.title} is back in stock.` });
    const visitor = address();
    expect(
      await subscribe(
        db,
        { kind: "release", id: entry!.id, account: null, email: visitor, clientIp: clientIp() },
        { links },
      ),
    ).toEqual({
      ok: true,
      message: "Check your e-mail: follow the link in it to confirm your alert.",
    });
    const [confirmation] = await mailsTo(visitor);
    expect(confirmation!.text).toContain(`when ${title.title} is back in stock`);
    const [pending] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, visitor));
    expect(
      await confirmAlert(
        db,
        { id: pending!.id, token: alertToken(pending!.id, links.secret) },
        links,
      ),
    ).toEqual({
      ok: true,
      message: `Your alert is confirmed: we will e-mail you when ${title.title} is back in stock.`,
    });
    const alerts = await db
      .select({
        kind: stockAlerts.kind,
        regSerialNo: stockAlerts.regSerialNo,
        status: stockAlerts.status,
      })
      .from(stockAlerts)
      .where(inArray(stockAlerts.email, [account.email, visitor]));
    expect(alerts).toEqual([
      { kind: "restock", regSerialNo: title.serialNo, status: "active" },
      { kind: "restock", regSerialNo: title.serialNo, status: "active" },
    ]);

    // What they were told is what happens: one e-mail each when it is back.
    await setStock(title.serialNo, 3);
    await sendDueAlerts(db, { links });
    for (const email of [account.email, visitor]) {
      expect(
        (await mailsTo(email)).filter((mail) => /back in stock/.test(mail.subject)),
      ).toHaveLength(1);
    }
    // On sale: nothing to wait for, and the answer says where it is.
    expect(
      await subscribe(
        db,
        { kind: "release", id: entry!.id, account: null, email: address(), clientIp: clientIp() },
        { links },
      ),
    ).toEqual({
      ok: false,
      reason: "conflict",
      message: `${title.title} is out now: add it to your cart.`,
    });
  });

  it("a signup at the moment staff link the entry is either made due by the link or waits on the title", async () => {
    const [entry] = await db
      .insert(comingSoon)
      .values({
        title: `Racing Premiere ${randomUUID().slice(0, 8)}`,
        releaseDate: "2099-01-01",
        posterUrl: "/posters/none.webp",
      })
      .returning();
    const title = await soldOutTitle();
    const accounts = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const userId = await createCustomer(db);
        return { userId, email: `order-${userId}@example.test` };
      }),
    );
    await Promise.all([
      ...accounts.map((account) =>
        subscribe(
          db,
          { kind: "release", id: entry!.id, account, email: null, clientIp: clientIp() },
          { links },
        ),
      ),
      linkComingSoon(db, { comingSoonId: entry!.id, regSerialNo: title.serialNo, retire: false }),
    ]);
    const alerts = await db
      .select({
        kind: stockAlerts.kind,
        status: stockAlerts.status,
        serial: stockAlerts.regSerialNo,
      })
      .from(stockAlerts)
      .where(
        inArray(
          stockAlerts.email,
          accounts.map((account) => account.email),
        ),
      );
    expect(alerts).toHaveLength(accounts.length);
    for (const alert of alerts) {
      expect([
        { kind: "release", status: "due", serial: title.serialNo },
        { kind: "restock", status: "active", serial: title.serialNo },
      ]).toContainEqual(alert);
    }
  });

  it("deleting a Coming Soon entry ends the release alerts waiting for it and says how many people were waiting", async () => {
    const [entry] = await db
      .insert(comingSoon)
      .values({
        title: `Shelved ${randomUUID().slice(0, 8)}`,
        releaseDate: "2099-01-01",
        posterUrl: "/posters/shelved.webp",
      })
      .returning();
    // A visitor who has not confirmed yet, two customers waiting, and one who stopped.
    await subscribe(
      db,
      { kind: "release", id: entry!.id, account: null, email: address(), clientIp: clientIp() },
      { links },
    );
    const waiting = [];
    for (let i = 0; i < 2; i++) {
      const userId = await createCustomer(db);
      const account = { userId, email: `order-${userId}@example.test` };
      await subscribe(
        db,
        { kind: "release", id: entry!.id, account, email: null, clientIp: clientIp() },
        { links },
      );
      waiting.push(account);
    }
    const [stopped] = await db
      .select({ id: stockAlerts.id })
      .from(stockAlerts)
      .where(eq(stockAlerts.email, waiting[1]!.email));
    await unsubscribe(db, stopped!.id);
    expect((await waitingForComingSoon(db)).get(entry!.id)).toBe(1);

    expect(await deleteComingSoon(db, entry!.id)).toEqual({
      posterUrl: "/posters/shelved.webp",
      endedAlerts: 1,
    });
    expect(await db.select().from(comingSoon).where(eq(comingSoon.id, entry!.id))).toEqual([]);
    expect(
      await db.select().from(stockAlerts).where(eq(stockAlerts.comingSoonId, entry!.id)),
    ).toEqual([]);
    expect(await statusOf(waiting[0]!.email)).toEqual([]);
    // Gone already: said so, nothing else changes.
    expect(await deleteComingSoon(db, entry!.id)).toBeNull();
  });

  it("a linked entry retires from the row whatever its alerts' states, and its late confirmations still go out", async () => {
    const [entry] = await db
      .insert(comingSoon)
      .values({
        title: `Retiring ${randomUUID().slice(0, 8)}`,
        releaseDate: "2099-01-01",
        posterUrl: "/posters/none.webp",
      })
      .returning();
    const [stopper, late] = [address(), address()];
    for (const email of [stopper, late]) {
      await subscribe(
        db,
        { kind: "release", id: entry!.id, account: null, email, clientIp: clientIp() },
        { links },
      );
    }
    const [stopped] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, stopper));
    await unsubscribe(db, stopped!.id);

    const title = await createRegularTitle(db, { qty: 2, priceCents: 1999 });
    expect(
      await linkComingSoon(db, {
        comingSoonId: entry!.id,
        regSerialNo: title.serialNo,
        retire: true,
      }),
    ).toMatchObject({ ok: true, alerts: 0 });
    expect(await db.select().from(comingSoon).where(eq(comingSoon.id, entry!.id))).toEqual([]);
    expect(await statusOf(stopper)).toEqual(["unsubscribed"]);
    const [pending] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, late));
    await confirmAlert(
      db,
      { id: pending!.id, token: alertToken(pending!.id, links.secret) },
      links,
    );
    await sendDueAlerts(db, { links });
    expect((await mailsTo(late)).map((mail) => mail.subject)).toContain(
      `${title.title} is out now at Reel & Repair`,
    );
  });

  it("counts the people waiting for each Coming Soon entry: active release alerts only", async () => {
    const entries = await db
      .insert(comingSoon)
      .values(
        ["Awaited", "Unwanted"].map((name) => ({
          title: `${name} ${randomUUID().slice(0, 8)}`,
          releaseDate: "2099-01-01",
          posterUrl: "/posters/none.webp",
        })),
      )
      .returning();
    const [awaited, unwanted] = entries as [(typeof entries)[0], (typeof entries)[0]];
    const alert = (entry: typeof awaited, status: "unconfirmed" | "active" | "unsubscribed") => ({
      kind: "release" as const,
      email: address(),
      comingSoonId: entry.id,
      title: entry.title,
      status,
    });
    await db
      .insert(stockAlerts)
      .values([
        alert(awaited, "active"),
        alert(awaited, "active"),
        alert(awaited, "unconfirmed"),
        alert(unwanted, "unsubscribed"),
        alert(unwanted, "unconfirmed"),
      ]);

    const waiting = await waitingForComingSoon(db);
    expect(waiting.get(awaited.id)).toBe(2);
    expect(waiting.has(unwanted.id)).toBe(false);
  });

  it("limits alerts per client address", async () => {
    const title = await soldOutTitle();
    const ip = clientIp().replace("203.0.113", "198.18.0");
    const answers = [];
    for (let i = 0; i < 31; i++) {
      answers.push(
        await subscribe(
          db,
          { kind: "restock", id: title.serialNo, account: null, email: address(), clientIp: ip },
          { links },
        ),
      );
    }
    expect(answers.slice(0, 30).every((answer) => answer.ok)).toBe(true);
    expect(answers[30]).toMatchObject({ ok: false, reason: "rate-limited" });
  });

  it("limits confirmation e-mails per mailbox: capitals and +tags do not make another address", async () => {
    const title = await soldOutTitle();
    const mailbox = `victim-${randomUUID().slice(0, 8)}`;
    const variants = Array.from({ length: 7 }, (_, i) =>
      i === 0
        ? `${mailbox}@Example.test`
        : `${i % 2 ? mailbox.toUpperCase() : mailbox}+${i}@example.test`,
    );
    for (const email of variants) {
      expect(
        await subscribe(
          db,
          { kind: "restock", id: title.serialNo, account: null, email, clientIp: clientIp() },
          { links },
        ),
      ).toEqual({
        ok: true,
        message: "Check your e-mail: follow the link in it to confirm your alert.",
      });
    }
    const { rows } = await db.execute<{ to: string }>(
      sql`select data->>'to' as to from pgboss.job where name = 'mail-send'
          and lower(data->>'to') like ${`${mailbox}%@example.test`}`,
    );
    // Five an hour reach the one mailbox, whichever spelling of it was typed.
    expect(rows).toHaveLength(ALERT_LIMITS.perAddress.max);
  });

  it("a CSV import restocking 1,000 titles with 10,000 waiting alerts makes each due in its transaction, and each is mailed once", async () => {
    const tag = `ALERTBULK-${randomUUID().slice(0, 8)}`;
    const titles = await db
      .insert(regularTitles)
      .values(
        Array.from({ length: 1000 }, (_, i) => ({
          productId: `${tag}-${i}`,
          title: `${tag} ${i}`,
          disc: "DVD" as const,
          qtyToList: 0,
          currentPriceCents: 999,
        })),
      )
      .returning({ serialNo: regularTitles.regSerialNo, title: regularTitles.title });
    const alerts = titles.flatMap((title) =>
      Array.from({ length: 10 }, (_, i) => ({
        kind: "restock" as const,
        email: `${tag.toLowerCase()}-${i}@example.test`,
        regSerialNo: title.serialNo,
        title: title.title,
        status: "active" as const,
      })),
    );
    for (let i = 0; i < alerts.length; i += 2000) {
      await db.insert(stockAlerts).values(alerts.slice(i, i + 2000));
    }
    const csv = [
      "RegSerialNo,ProductID,QtyToList,Title,Disc,CurrentPrice",
      ...titles.map((title, i) => `${title.serialNo},${tag}-${i},2,${title.title},DVD,9.99`),
    ].join("\n");
    const serials = titles.map((title) => title.serialNo);
    const dueCount = async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(stockAlerts)
        .where(and(inArray(stockAlerts.regSerialNo, serials), eq(stockAlerts.status, "due")));
      return row!.n;
    };

    await db.transaction(async (tx) => {
      const report = await importCatalogCsv(tx, "regular", csv, { dryRun: false });
      expect(report).toMatchObject({ written: true, updated: 1000, rejected: [] });
      // Made due by the import's own transaction: seen inside it, not outside until commit.
      const [inside] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(stockAlerts)
        .where(and(inArray(stockAlerts.regSerialNo, serials), eq(stockAlerts.status, "due")));
      expect(inside!.n).toBe(10_000);
      expect(await dueCount()).toBe(0);
    });
    expect(await dueCount()).toBe(10_000);

    const sent = await Promise.all([sendDueAlerts(db, { links }), sendDueAlerts(db, { links })]);
    expect(sent[0] + sent[1]).toBe(10_000);
    const { rows } = await db.execute<{ mails: number; addresses: number }>(
      sql`select count(*)::int as mails, count(distinct (data->>'to') || (data->>'subject'))::int as addresses
          from pgboss.job where name = 'mail-send' and data->>'subject' like ${`${tag} %`}`,
    );
    expect(rows[0]).toEqual({ mails: 10_000, addresses: 10_000 });
    // How long the import and the sending take: npm run bench:catalog-import.
  }, 120_000);
});
