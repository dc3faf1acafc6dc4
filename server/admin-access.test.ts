import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import { ticketStatusPath } from "#app/domain/repair-tickets/status-link.server.ts";
import routeConfig from "#app/routes.ts";
import { clientAddresses, postForm, withCookie } from "#tests/support/form-post.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";

// Every route of app/routes.ts, and every back-office page and action, asked for by a visitor,
// a customer, another customer, a clerk and an admin, over real HTTP against the real server
// (the production build must exist). A clerk has the repair desk, the returns desk and the
// orders to read (decision 023); everything else in the back office is an admin's.

const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-access-"));
const { url: databaseUrl } = emptyDatabase("admin_access");
const shopDb = new pg.Client(databaseUrl);
const PASSWORD = "Access-Checker-Pass-9";
// Known here, so the test can sign a repair ticket's status link as the shop does.
const AUTH_SECRET = "access-matrix-secret-for-signed-links-only";
let shop: RunningServer;
const cookies: Record<"customer" | "other" | "clerk" | "admin", string> = {
  customer: "",
  other: "",
  clerk: "",
  admin: "",
};
// A clerk refunds up to $10.00 here: return RMA-1001 ($15.98) is above it.
const REFUND_LIMIT_CENTS = 1000;

const nextClient = clientAddresses();
async function post(pathname: string, body: Record<string, string>, cookie = "") {
  return postForm(shop.url, pathname, body, {
    "X-Forwarded-For": nextClient(),
    ...withCookie(cookie),
  });
}

async function account(role: "customer" | "clerk" | "admin", label: string = role) {
  const email = `${label}-${process.pid}@example.test`;
  await post("/register", {
    firstName: "Access",
    lastName: "Checker",
    dateOfBirth: "1980-01-01",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  await shopDb.query("update users set email_verified = true, role = $2 where email = $1", [
    email,
    role,
  ]);
  const login = await post("/login", { intent: "login", email, password: PASSWORD });
  expect(login.status).toBe(302);
  // Staff land in the back office.
  expect(login.headers.get("location")).toBe(role === "customer" ? "/" : "/admin");
  return login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

beforeAll(async () => {
  shop = await startServer({
    DATABASE_URL: databaseUrl,
    DATA_DIR: scratchDir,
    PORT: "0",
    SEED_DEMO: "true",
    TRUST_PROXY: "loopback",
    AUTH_SECRET,
    COUNTER_REFUND_LIMIT_CENTS: String(REFUND_LIMIT_CENTS),
  });
  await shopDb.connect();
  cookies.customer = await account("customer");
  cookies.other = await account("customer", "other");
  cookies.clerk = await account("clerk");
  cookies.admin = await account("admin");
  await seedRunningTheShop();
  await customerCheckout();
});

let customerAlertId = 0;

/** An order of each kind, a customer, a contact message and a repair request, with known ids. */
async function seedRunningTheShop() {
  await shopDb.query(
    `insert into users (id, name, email, email_verified) values ('access-buyer', 'Ann Buyer', 'ann@example.test', true);
     insert into customers (id, email, first_name, last_name) values ('access-buyer', 'ann@example.test', 'Ann', 'Buyer');`,
  );
  for (const [id, status] of [
    [1, "paid"],
    [2, "pending"],
    [3, "shipped"],
  ] as const) {
    await shopDb.query(
      `insert into orders (id, user_id, status, shipping_name, shipping_address, shipping_city,
         shipping_state, shipping_postal_code, shipping_phone, shipping_email, shipping_method,
         subtotal_cents, shipping_cents, tax_cents, total_cents, payment_provider, paid_at)
       values ($1, 'access-buyer', $2, 'Ann Buyer', '1 Main St', 'Arlington', 'TX', '76012',
         '(817) 555-0100', 'ann@example.test', 'standard', 999, 599, 0, 1598, 'test',
         case when $2 = 'pending' then null else now() end)`,
      [id, status],
    );
    await shopDb.query(
      `insert into order_items (order_id, product_type, product_serial_no, title, quantity, unit_price_cents)
       values ($1, 'regular', 5, 'Access Film', 1, 999)`,
      [id],
    );
  }
  await shopDb.query(
    `insert into store_items (id, sku, name, price_cents, stock)
     values (1, 'ACC-ITEM', 'Access Poster', 1500, 4), (2, 'ACC-VIEW', 'Access Board Game', 2500, 1)`,
  );
  // Orders placed from here on are numbered after the ones above.
  await shopDb.query("select setval(pg_get_serial_sequence('orders', 'id'), 100)");
  await shopDb.query(
    `insert into contacts (id, name, email, message) values (1, 'Cora Contact', 'cora@example.test', 'Do you buy old DVDs?');
     insert into service_requests (id, name, email, phone, service_type, issue, preferred_date,
       preferred_time, starts_at, confirmed_at)
     values (1, 'Rex Repair', 'rex@example.test', '(817) 555-0101', 'Laptop Repair', 'Screen flickers',
       (now() + interval '3 days')::date, '10:00', now() + interval '3 days', now());`,
  );
  // Three repair tickets: R-1001 for the staff's pages and actions, R-1002 waiting for the
  // customer's decision on an estimate, R-1000 collected (its receipt).
  await shopDb.query(
    `insert into repair_tickets (number, customer_name, customer_email, customer_phone, service_type,
       device_kind, device_brand, device_model, problem, condition_at_intake, promised_date, status)
     values (1001, 'Tess Ticket', 'tess@example.test', '(817) 555-0102', 'PC & Laptop Repair',
       'Laptop', 'Dell', 'XPS 13', 'No power', 'Fine', current_date + 3, 'checked_in'),
       (1002, 'Tom Ticket', 'tom@example.test', '(817) 555-0103', 'Mobile Phone Repair',
       'Phone', 'Apple', 'iPhone 13', 'Cracked', 'Cracked', current_date + 3, 'estimate_sent');
     insert into repair_tickets (number, customer_name, customer_email, customer_phone, service_type,
       device_kind, device_brand, device_model, problem, condition_at_intake, promised_date, status,
       payment_method, paid_cents, closed_at)
     values (1000, 'Cal Collected', 'cal@example.test', '(817) 555-0105', 'Game Console Repair',
       'Game console', 'Sony', 'PS5', 'No picture', 'Fine', current_date, 'collected',
       'card', 1000, now());
     insert into repair_estimates (id, ticket_number, version, subtotal_cents, tax_rate, tax_cents, total_cents, status, decided_at)
     values (1, 1002, 1, 1000, '0', 0, 1000, 'pending', null), (2, 1000, 1, 1000, '0', 0, 1000, 'approved', now());
     insert into repair_estimate_lines (estimate_id, position, kind, description, quantity, unit_cents)
     values (1, 0, 'part', 'Screen', 1, 1000), (2, 0, 'labour', 'HDMI port', 1, 1000);
     select setval(pg_get_serial_sequence('repair_tickets', 'number'), 1002);
     select setval(pg_get_serial_sequence('repair_estimates', 'id'), 2);`,
  );
  // A return asked for on the shipped order, for the staff's return pages and actions.
  await shopDb.query(
    `insert into returns (number, order_id, reason, method) values (1001, 3, 'Faulty disc', 'mail');
     insert into return_items (return_number, product_type, product_serial_no, title, quantity, unit_price_cents)
     values (1001, 'regular', 5, 'Access Film', 1, 999);
     select setval(pg_get_serial_sequence('returns', 'number'), 1001);`,
  );
  // Someone waiting for Coming Soon entry 2's release, for the staff's link to the catalogue;
  // and the customer's own alert for title 7, which only they may stop.
  await shopDb.query(
    `insert into stock_alerts (kind, email, coming_soon_id, title, status, confirmed_at)
     values ('release', 'ann@example.test', 2, 'Access Premiere', 'active', now())`,
  );
  const { rows: alerts } = await shopDb.query<{ id: number }>(
    `insert into stock_alerts (kind, email, reg_serial_no, title, status, confirmed_at)
     values ('restock', $1, 7, 'Access Restock', 'active', now()) returning id`,
    [`customer-${process.pid}@example.test`],
  );
  customerAlertId = alerts[0]!.id;
  // An intake photo of R-1002 (id 1), where the shop keeps them: the private storage area.
  const photos = path.join(scratchDir, "uploads", "private", "repair-photos");
  fs.mkdirSync(photos, { recursive: true });
  const photo = await sharp({
    create: { width: 40, height: 30, channels: 3, background: "#336699" },
  })
    .webp()
    .toBuffer();
  fs.writeFileSync(path.join(photos, `${"a".repeat(32)}.webp`), photo);
  await shopDb.query(
    `insert into repair_ticket_photos (id, ticket_number, storage_key, content_type, width, height)
     values (1, 1002, $1, 'image/webp', 40, 30)`,
    [`${"a".repeat(32)}.webp`],
  );
}

afterAll(async () => {
  await shop?.stop();
  await shopDb.end();
  fs.rmSync(scratchDir, { recursive: true, force: true });
});

const PAGES = [
  "/admin",
  "/admin/items",
  "/admin/items?q=the&sort=price&dir=desc&page=2",
  "/admin/items/new",
  "/admin/items/1/edit",
  "/admin/adult/items",
  "/admin/adult/items/new",
  "/admin/adult/items/1/edit",
  "/admin/coming-soon",
  "/admin/store-items",
  "/admin/store-items?q=poster&page=2",
  "/admin/store-items/new",
  "/admin/store-items/import",
  "/admin/store-items/2/edit",
  "/admin/store-items/export.csv",
  "/admin/items/import",
  "/admin/adult/items/import",
  "/admin/items/export.csv",
  "/admin/adult/items/export.csv",
  "/admin/orders",
  "/admin/orders?status=paid&q=ann&page=2",
  "/admin/orders/1",
  "/admin/orders/export.csv?status=paid",
  "/admin/customers",
  "/admin/customers?q=ann",
  "/admin/customers/access-buyer",
  "/admin/inbox",
  "/admin/inbox?kind=repair&state=all",
  "/admin/inbox/contact/1",
  "/admin/inbox/repair/1",
  "/admin/repairs",
  "/admin/repairs?status=ready&q=dell",
  "/admin/repairs?status=checked_in&page=2",
  "/admin/repairs/new",
  "/admin/repairs/new?booking=1",
  "/admin/repairs/R-1001",
  "/admin/repairs/1001",
  "/admin/repairs/R-1001/claim",
  "/admin/repairs/R-1001/edit",
  "/admin/repairs/new?customer=tess%40example.test",
  "/admin/repairs/new?from=R-1001",
  "/admin/returns",
  "/admin/returns?status=received&page=2",
  "/admin/returns/1001",
  "/admin/returns/RMA-1001",
  "/counter",
  "/counter/till",
  "/counter/till/export.csv",
  "/counter/pickups",
  "/counter/pickups?code=ZZZZ2222",
  "/counter/pickups?orderNumber=1&name=Nobody",
];

const REGULAR = {
  productId: "ACC-1",
  qtyToList: "1",
  title: "Access Probe",
  releaseYear: "2001",
  disc: "DVD",
  currentPriceCents: "9.99",
};
const WALK_IN = {
  name: "Walter Inn",
  email: "walter@example.test",
  phone: "(817) 555-0104",
  serviceType: "Mobile Phone Repair",
  deviceKind: "Phone",
  deviceBrand: "Apple",
  deviceModel: "iPhone 12",
  problem: "Battery drains",
  conditionAtIntake: "Fine",
  promisedDate: "2099-01-01",
};
const ADULT = { productId: "77", priceCents: "9.99", quantity: "1", title: "Access Probe" };
const ITEM = {
  sku: "ACC-NEW",
  name: "Access Probe",
  priceCents: "9.99",
  stock: "1",
  taxable: "on",
};

/** A store items file that would rename and restock the first item. */
const ITEM_CSV = "SKU,Name,Price,Stock,Taxable\nACC-ITEM,Renamed By Someone,1,9,yes\n";

const ACTIONS: { path: string; body: Record<string, string> }[] = [
  { path: "/admin/items", body: { intent: "delete", serialNo: "2" } },
  { path: "/admin/items", body: { intent: "staff-pick", serialNo: "4", on: "true" } },
  { path: "/admin/items/new", body: REGULAR },
  { path: "/admin/items/1/edit", body: { ...REGULAR, title: "Renamed By Someone" } },
  { path: "/admin/adult/items", body: { intent: "delete", serialNo: "2" } },
  { path: "/admin/adult/items/new", body: ADULT },
  { path: "/admin/adult/items/1/edit", body: { ...ADULT, title: "Renamed By Someone" } },
  { path: "/admin/coming-soon", body: { intent: "delete", id: "1" } },
  { path: "/admin/store-items/1/edit", body: { ...ITEM, sku: "ACC-ITEM", stock: "9" } },
  { path: "/admin/store-items/new", body: ITEM },
  { path: "/admin/store-items", body: { intent: "archive", id: "1" } },
  {
    path: "/admin/coming-soon",
    body: { intent: "link", id: "2", regSerialNo: "5", retire: "on" },
  },
  { path: "/admin/orders/1", body: { intent: "ship", carrier: "UPS", trackingNumber: "1Z1" } },
  { path: "/admin/orders/2", body: { intent: "cancel" } },
  { path: "/admin/orders/3", body: { intent: "complete" } },
  {
    path: "/admin/inbox/contact/1",
    body: { intent: "reply", body: "Yes, we do.", markHandled: "on" },
  },
  { path: "/admin/inbox/contact/1", body: { intent: "handled" } },
  { path: "/admin/inbox/repair/1", body: { intent: "cancel-booking" } },
  { path: "/admin/repairs/new", body: WALK_IN },
  {
    path: "/admin/repairs/R-1001",
    body: { intent: "move", from: "checked_in", to: "diagnosing", note: "" },
  },
  {
    path: "/admin/repairs/R-1001",
    body: {
      intent: "estimate",
      from: "diagnosing",
      "lines.0.kind": "labour",
      "lines.0.description": "Replace the power board",
      "lines.0.quantity": "1",
      "lines.0.unitPrice": "80",
    },
  },
  // Not ready for pickup yet: refused as a conflict, even for an admin.
  {
    path: "/admin/repairs/R-1001",
    body: { intent: "collect", paymentMethod: "cash", paid: "80", key: randomUUID() },
  },
  // Corrected from details other than the ticket's: refused as a conflict, even for an admin.
  { path: "/admin/repairs/R-1001/edit", body: { ...WALK_IN, seen: "not-what-is-there" } },
  { path: "/counter?index", body: { intent: "open-till", float: "100" } },
  { path: "/counter/till", body: { counted: "100" } },
  { path: "/admin/returns/1001", body: { intent: "receive", "condition.regular.5": "restock" } },
  { path: "/admin/returns/1001", body: { intent: "refund" } },
  // Refunded already: refused as a conflict, even for an admin.
  { path: "/admin/returns/1001", body: { intent: "reject", from: "refunded", reason: "Late" } },
];

async function catalogueState() {
  const { rows } = await shopDb.query(
    `select (select count(*) from regular_titles)::int as regular,
            (select count(*) from adult_titles)::int as adult,
            (select string_agg(reg_serial_no::text, ',' order by reg_serial_no) from staff_picks) as picks,
            (select count(*) from coming_soon)::int as coming_soon,
            (select string_agg(id || ':' || sku || ':' || stock || ':' || (archived_at is null), ',' order by id) from store_items) as store_items,
            (select count(*) from regular_titles where title = 'Renamed By Someone' or title = 'Access Probe')::int
              + (select count(*) from adult_titles where title = 'Renamed By Someone' or title = 'Access Probe')::int as touched,
            (select string_agg(id || ':' || status, ',' order by id) from orders) as orders,
            (select count(*) from contacts where handled_at is not null)::int as handled,
            (select count(*) from inbox_replies)::int as replies,
            (select count(*) from service_requests where cancelled_at is not null)::int as cancelled_bookings,
            (select count(*) from service_requests)::int as bookings,
            (select count(*) from contacts)::int as contacts,
            (select string_agg(id || ':' || coalesce(first_name, '') || ':' || coalesce(date_of_birth::text, ''), ',' order by id) from customers) as customers,
            (select string_agg(name, ',' order by id) from users) as users,
            (select string_agg(number || ':' || status, ',' order by number) from repair_tickets) as tickets,
            (select string_agg(id || ':' || status, ',' order by id) from repair_estimates) as estimates,
            (select string_agg(number || ':' || status, ',' order by number) from returns) as returns,
            (select qty_to_list from regular_titles where reg_serial_no = 5) as returned_stock,
            (select string_agg(id || ':' || status || ':' || coalesce(reg_serial_no::text, ''), ',' order by id) from stock_alerts) as alerts`,
  );
  return rows[0];
}

/**
 * The pages and actions a clerk may use too: the dashboard, the counter, the repair desk, the
 * returns desk and the orders to read (not their CSV export, every customer's address).
 */
function forTheDesk(page: string): boolean {
  const pathname = page.split("?")[0]!;
  return (
    pathname === "/admin" ||
    /^\/counter(\/|$)/.test(pathname) ||
    /^\/admin\/(repairs|returns)(\/|$)/.test(pathname) ||
    (/^\/admin\/orders(\/|$)/.test(pathname) && !pathname.endsWith(".csv"))
  );
}

describe("the back office's pages", () => {
  it.each(PAGES)("%s: visitors go to /login, customers to /, staff see it", async (page) => {
    const visitor = await fetch(`${shop.url}${page}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);

    const customer = await fetch(`${shop.url}${page}`, {
      redirect: "manual",
      headers: { Cookie: cookies.customer },
    });
    expect(customer.status).toBe(302);
    expect(customer.headers.get("location")).toBe("/");

    // A clerk sees the desk's pages; the rest of the back office sends them where a customer goes.
    const clerk = await fetch(`${shop.url}${page}`, {
      redirect: "manual",
      headers: { Cookie: cookies.clerk },
    });
    await clerk.body?.cancel();
    if (forTheDesk(page)) {
      expect(clerk.status).toBe(200);
      expect(clerk.headers.get("cache-control")).toContain("private");
    } else {
      expect(clerk.status).toBe(302);
      expect(clerk.headers.get("location")).toBe("/");
    }

    const staff = await fetch(`${shop.url}${page}`, {
      redirect: "manual",
      headers: { Cookie: cookies.admin },
    });
    expect(staff.status).toBe(200);
    expect(staff.headers.get("cache-control")).toContain("private");
  });
});

describe("the back office's actions", () => {
  it("refuse visitors and customers, and clerks outside the desk, with 403 and change nothing", async () => {
    const before = await catalogueState();
    const csv =
      "RegSerialNo,ProductID,QtyToList,Title,Disc,CurrentPrice\n1,X,1,Renamed By Someone,DVD,1\n";
    const imports = [
      ...["/admin/items/import", "/admin/adult/items/import"].map((path) => ({
        path,
        body: { intent: "import", csv },
      })),
      { path: "/admin/store-items/import", body: { intent: "import", csv: ITEM_CSV } },
    ];
    for (const action of [...ACTIONS, ...imports]) {
      const who = { visitor: "", customer: cookies.customer, clerk: cookies.clerk };
      for (const [role, cookie] of Object.entries(who)) {
        if (role === "clerk" && forTheDesk(action.path)) continue;
        const response = await post(action.path, action.body, cookie);
        expect(response.status, `${action.path} ${role}`).toBe(403);
      }
    }
    expect(await catalogueState()).toEqual(before);
  });

  it("work for an admin", async () => {
    const before = await catalogueState();
    for (const action of ACTIONS) {
      const response = await post(action.path, action.body, cookies.admin);
      expect([200, 302, 409], action.path).toContain(response.status);
    }
    const after = await catalogueState();
    expect(after.touched).toBeGreaterThanOrEqual(3);
    expect(after).toMatchObject({
      orders: `1:shipped,2:cancelled,3:completed,${own.orderId}:pending`,
      handled: 1,
      replies: 1,
      cancelled_bookings: 1,
      tickets: "1000:collected,1001:estimate_sent,1002:estimate_sent,1003:checked_in",
      returns: "1001:refunded",
      // Stock changed, then taken off sale; the new item added.
      store_items: "1:ACC-ITEM:9:false,2:ACC-VIEW:1:true,1001:ACC-NEW:1:true",
    });
    // Linked: the release alert went out (or is about to) for title 5, and the entry is retired.
    expect(after.alerts).toMatch(/(^|,)\d+:(due|sent):5(,|$)/);
    expect(after.coming_soon).toBe(before.coming_soon - 2);
  });
});

describe("the counter's clerk", () => {
  async function clerkId() {
    const { rows } = await shopDb.query<{ id: string }>(
      "select id from users where role = 'clerk'",
    );
    return rows[0]!.id;
  }

  it("takes a walk-in repair through the desk, named in the ticket's history", async () => {
    const opened = await post("/admin/repairs/new", WALK_IN, cookies.clerk);
    expect(opened.status).toBe(302);
    const ticket = /\/admin\/repairs\/(R-\d+)/.exec(opened.headers.get("location") ?? "")![1]!;
    const at = `/admin/repairs/${ticket}`;
    const steps: [Record<string, string>, number][] = [
      [{ intent: "move", from: "checked_in", to: "diagnosing", note: "" }, 200],
      [ACTIONS.find((action) => action.body.intent === "estimate")!.body, 200],
      // Not ready for pickup yet: refused as a conflict, as it is for an admin.
      [{ intent: "collect", paymentMethod: "cash", paid: "80", key: randomUUID() }, 409],
    ];
    for (const [body, status] of steps) {
      expect((await post(at, body, cookies.clerk)).status, body.intent).toBe(status);
    }
    const edited = await post(`${at}/edit`, { ...WALK_IN, seen: "stale" }, cookies.clerk);
    expect(edited.status).toBe(409);
    const { rows } = await shopDb.query(
      `select t.status, array_agg(distinct e.actor_id) as actors
         from repair_tickets t join repair_ticket_events e on e.ticket_number = t.number
        where t.number = $1 group by t.status`,
      [Number(ticket.slice(2))],
    );
    expect(rows).toEqual([{ status: "estimate_sent", actors: [await clerkId()] }]);
  });

  it("makes a paid pickup order ready and hands it over at the counter, named as who did", async () => {
    await shopDb.query(
      `insert into orders (id, user_id, status, shipping_name, shipping_address, shipping_city,
         shipping_state, shipping_postal_code, shipping_phone, shipping_email, shipping_method,
         subtotal_cents, shipping_cents, tax_cents, total_cents, payment_provider, paid_at)
       values (9005, 'access-buyer', 'paid', 'Ann Buyer', '1201 W Division St', 'Arlington', 'TX',
         '76012', '(817) 555-0100', 'ann@example.test', 'pickup', 500, 0, 0, 500, 'test', now());
       insert into order_items (order_id, product_type, product_serial_no, title, quantity, unit_price_cents)
       values (9005, 'regular', 5, 'Access Pickup', 1, 500);`,
    );
    const ready = { intent: "ready-for-pickup" };
    for (const cookie of ["", cookies.customer, cookies.other]) {
      expect((await post("/admin/orders/9005", ready, cookie)).status).toBe(403);
      expect((await post("/counter/pickups", { orderId: "9005" }, cookie)).status).toBe(403);
    }
    // Not ready yet: the counter refuses it.
    expect((await post("/counter/pickups", { orderId: "9005" }, cookies.clerk)).status).toBe(409);
    expect((await post("/admin/orders/9005", ready, cookies.clerk)).status).toBe(200);
    // Shipping it stays an admin's.
    expect((await post("/admin/orders/9005", { intent: "ship" }, cookies.clerk)).status).toBe(403);
    expect((await post("/counter/pickups", { orderId: "9005" }, cookies.clerk)).status).toBe(200);
    const { rows } = await shopDb.query(
      "select status, collected_by_id, pickup_code from orders where id = 9005",
    );
    expect(rows[0]).toMatchObject({ status: "completed", collected_by_id: await clerkId() });
    expect(rows[0].pickup_code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
  });

  it("receives and rejects returns, refunds up to the limit, and leaves a bigger refund to an admin", async () => {
    // Order 1 (shipped by the admin above, $15.98) and a small order of $5.00, with returns.
    await shopDb.query(
      `insert into orders (id, user_id, status, shipping_name, shipping_address, shipping_city,
         shipping_state, shipping_postal_code, shipping_phone, shipping_email, shipping_method,
         subtotal_cents, shipping_cents, tax_cents, total_cents, payment_provider, paid_at, shipped_at)
       values (4, 'access-buyer', 'shipped', 'Ann Buyer', '1 Main St', 'Arlington', 'TX', '76012',
         '(817) 555-0100', 'ann@example.test', 'standard', 500, 0, 0, 500, 'test', now(), now());
       insert into order_items (order_id, product_type, product_serial_no, title, quantity, unit_price_cents)
       values (4, 'regular', 5, 'Access Short', 1, 500);
       insert into returns (number, order_id, reason, method)
       values (1002, 1, 'Faulty disc', 'drop_off'), (1003, 4, 'Faulty disc', 'drop_off'),
         (1004, 4, 'Changed my mind', 'drop_off');
       insert into return_items (return_number, product_type, product_serial_no, title, quantity, unit_price_cents)
       values (1002, 'regular', 5, 'Access Film', 1, 999), (1003, 'regular', 5, 'Access Short', 1, 500),
         (1004, 'regular', 5, 'Access Short', 1, 500);`,
    );
    const receive = { intent: "receive", "condition.regular.5": "restock" };
    const returnStatus = async (number: number) =>
      (
        await shopDb.query("select status, refund_started_at from returns where number = $1", [
          number,
        ])
      ).rows[0];

    expect((await post("/admin/returns/1002", receive, cookies.clerk)).status).toBe(200);
    const refused = await post("/admin/returns/1002", { intent: "refund" }, cookies.clerk);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(
      "RMA-1002 would refund $15.98, more than the $10.00 a clerk may refund: an admin must make this refund.",
    );
    expect(await returnStatus(1002)).toEqual({ status: "received", refund_started_at: null });
    expect((await post("/admin/returns/1002", { intent: "refund" }, cookies.admin)).status).toBe(
      200,
    );
    expect(await returnStatus(1002)).toMatchObject({ status: "refunded" });

    expect((await post("/admin/returns/1003", receive, cookies.clerk)).status).toBe(200);
    expect((await post("/admin/returns/1003", { intent: "refund" }, cookies.clerk)).status).toBe(
      200,
    );
    expect(await returnStatus(1003)).toMatchObject({ status: "refunded" });
    const rejected = await post(
      "/admin/returns/1004",
      { intent: "reject", from: "requested", reason: "Not bought here" },
      cookies.clerk,
    );
    expect(rejected.status).toBe(200);
    expect(await returnStatus(1004)).toMatchObject({ status: "rejected" });
    const { rows } = await shopDb.query(
      "select distinct actor_id from order_events where return_number in (1003, 1004) and actor_id is not null",
    );
    expect(rows).toEqual([{ actor_id: await clerkId() }]);
  });

  it("sees in the back office's menu and dashboard only the sections a clerk may use", async () => {
    const page = await fetch(`${shop.url}/admin`, { headers: { Cookie: cookies.clerk } });
    const html = await page.text();
    const menu = /<nav aria-label="Back office"[\s\S]*?<\/nav>/.exec(html)![0];
    // Nor does the dashboard send a clerk to the inbox: a booking opens at the repair desk.
    expect(html).not.toContain('href="/admin/inbox');
    // The pages linked (not the icons' sprite).
    const links = [...menu.matchAll(/href="(\/admin[^"]*)"/g)].map((match) => match[1]);
    expect(links).toEqual(["/admin", "/admin/orders", "/admin/returns", "/admin/repairs"]);
    expect(menu).not.toContain("Add New Titles");
  });

  it("cannot use Better Auth's admin endpoints: no users listed, no role changed", async () => {
    const asClerk = {
      Cookie: cookies.clerk,
      Origin: shop.url,
      "Content-Type": "application/json",
      "X-Forwarded-For": nextClient(),
    };
    const listed = await fetch(`${shop.url}/api/auth/admin/list-users`, { headers: asClerk });
    expect(listed.status).toBe(403);
    const id = await clerkId();
    for (const [endpoint, body] of [
      ["set-role", { userId: id, role: "admin" }],
      ["create-user", { email: "made-by-clerk@example.test", password: PASSWORD, name: "Made" }],
      ["ban-user", { userId: "access-buyer" }],
      ["impersonate-user", { userId: "access-buyer" }],
    ] as const) {
      const response = await fetch(`${shop.url}/api/auth/admin/${endpoint}`, {
        method: "POST",
        headers: asClerk,
        body: JSON.stringify(body),
      });
      expect(response.status, endpoint).toBe(403);
    }
    const { rows } = await shopDb.query(
      `select (select role from users where id = $1) as role,
              (select count(*) from users where email = 'made-by-clerk@example.test')::int as made,
              (select banned from users where id = 'access-buyer') as banned,
              (select count(*) from sessions where impersonated_by is not null)::int as impersonating`,
      [id],
    );
    expect(rows[0]).toEqual({ role: "clerk", made: 0, banned: false, impersonating: 0 });
  });
});

/** The customer's own unpaid order, on the test payment page: its session and cancel link. */
const own = { orderId: 0, paymentPath: "", cancelPath: "" };

async function customerCheckout() {
  const { rows } = await shopDb.query<{ serial: number }>(
    "select reg_serial_no as serial from regular_titles where qty_to_list >= 2 order by 1 limit 1",
  );
  const paid = await post(
    "/cart",
    {
      name: "Access Checker",
      address: "1 Main St",
      city: "Arlington",
      state: "TX",
      postalCode: "76012",
      phone: "(817) 555-0100",
      email: `customer-${process.pid}@example.test`,
      shippingMethod: "standard",
      lines: JSON.stringify([{ productType: "regular", serialNo: rows[0]!.serial, quantity: 1 }]),
      intent: "pay",
      checkoutKey: crypto.randomUUID(),
    },
    cookies.customer,
  );
  expect(paid.status).toBe(302);
  own.paymentPath = paid.headers.get("location")!;
  own.orderId = Number(/test_(\d+)_/.exec(own.paymentPath)![1]);
  const page = await fetch(`${shop.url}${own.paymentPath}`, {
    headers: { Cookie: cookies.customer },
  });
  own.cancelPath = /href="(\/checkout\/cancel\?[^"]+)"/
    .exec(await page.text())![1]!
    .replaceAll("&amp;", "&");
}

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** Every route of app/routes.ts: its URL pattern and its module. */
function routeList(entries: RouteEntry[], parent = ""): { pattern: string; file: string }[] {
  return entries.flatMap((entry) => {
    const pattern = entry.index ? parent || "/" : `${parent}/${entry.path ?? ""}`;
    return [{ pattern, file: entry.file }, ...routeList(entry.children ?? [], pattern)];
  });
}

/** Does the route's module take writes (export an action)? */
function takesWrites(file: string): boolean {
  const source = fs.readFileSync(path.join(import.meta.dirname, "../app", file), "utf8");
  return /export (async )?function action\b|export const action\b/.test(source);
}

type Role = "visitor" | "customer" | "other" | "clerk" | "admin";
const ROLES: Role[] = ["visitor", "customer", "other", "clerk", "admin"];
/** Status per role: visitor, customer, another customer, clerk, admin. */
type Expected = [number, number, number, number, number];
const PUBLIC: Expected = [200, 200, 200, 200, 200];
const SIGNED_IN: Expected = [302, 200, 200, 200, 200];
/** The desk's pages: a clerk's and an admin's. */
const STAFF: Expected = [302, 302, 302, 200, 200];
/** The rest of the back office: a clerk is sent where a customer is. */
const ADMIN: Expected = [302, 302, 302, 302, 200];

const NOT_FOUND: Expected = [404, 404, 404, 404, 404];
const SIGNED_OUT_ONLY: Expected = [200, 302, 302, 302, 302];
const REDIRECTS: Expected = [302, 302, 302, 302, 302];
const NO_GET: Expected = [405, 405, 405, 405, 405];

/** Each route: a URL to ask for, and what each role gets. */
const ROUTE_MATRIX: Record<string, { url: () => string; get: Expected }> = {
  "/": { url: () => "/", get: PUBLIC },
  "/movies": { url: () => "/movies?page=2", get: PUBLIC },
  "/movies/:regSerialNo": { url: () => "/movies/1", get: PUBLIC },
  // Signed-in adults pass the age gate with their account's date of birth.
  "/adult-movies": { url: () => "/adult-movies", get: SIGNED_IN },
  "/adult-movies/:adultSerialNo": { url: () => "/adult-movies/1", get: SIGNED_IN },
  "/age-check": { url: () => "/age-check", get: SIGNED_OUT_ONLY },
  "/new-arrivals": { url: () => "/new-arrivals", get: PUBLIC },
  // The demo's third upcoming title (the admin's actions delete the first and retire the second).
  "/coming-soon/:id": { url: () => "/coming-soon/3", get: PUBLIC },
  // A signup posts here; without one the page says where alerts are asked for.
  "/alerts": { url: () => "/alerts", get: PUBLIC },
  // Signed links: a forged one finds no alert, for anyone.
  "/alerts/confirm/:id/:token": { url: () => "/alerts/confirm/1/forged", get: NOT_FOUND },
  "/alerts/unsubscribe/:id/:token": { url: () => "/alerts/unsubscribe/1/forged", get: NOT_FOUND },
  "/staff-picks": { url: () => "/staff-picks", get: PUBLIC },
  "/search": { url: () => "/search?query=the", get: PUBLIC },
  "/about": { url: () => "/about", get: PUBLIC },
  "/returns": { url: () => "/returns", get: PUBLIC },
  "/other-services": { url: () => "/other-services", get: PUBLIC },
  "/contact": { url: () => "/contact", get: PUBLIC },
  "/service-request-form": { url: () => "/service-request-form", get: PUBLIC },
  "/service-request-success": { url: () => "/service-request-success", get: PUBLIC },
  "/service-request/confirm/:token": {
    url: () => "/service-request/confirm/not-a-token",
    get: NOT_FOUND,
  },
  // An invalid link says so on a page of its own.
  "/service-request/cancel/:token": { url: () => "/service-request/cancel/1.forged", get: PUBLIC },
  // A repair's status page: anyone with its signed link, no sign-in.
  "/repairs/:label/:token": { url: () => ticketStatusPath(1002, AUTH_SECRET), get: PUBLIC },
  // A collected repair's receipt, under the same signed link.
  "/repairs/:label/:token/receipt": {
    url: () => `${ticketStatusPath(1000, AUTH_SECRET)}/receipt`,
    get: PUBLIC,
  },
  // A repair's pay link: R-1002 has nothing to pay yet, so back to its status page.
  "/repairs/:label/:token/pay": {
    url: () => `${ticketStatusPath(1002, AUTH_SECRET)}/pay`,
    get: REDIRECTS,
  },
  "/cart": { url: () => "/cart", get: PUBLIC },
  "/cart-success": { url: () => `/cart-success?order=${own.orderId}`, get: SIGNED_IN },
  // The owner's payment page only.
  "/checkout/test-payment/:sessionId": {
    url: () => own.paymentPath,
    get: [302, 200, 404, 404, 404],
  },
  // Without the order's signed link nothing changes: everyone goes to the cart.
  "/checkout/cancel": {
    url: () => `/checkout/cancel?order=${own.orderId}&token=forged`,
    get: REDIRECTS,
  },
  "/api/webhooks/stripe": { url: () => "/api/webhooks/stripe", get: NO_GET },
  "/login": { url: () => "/login", get: SIGNED_OUT_ONLY },
  "/register": { url: () => "/register", get: SIGNED_OUT_ONLY },
  "/reset-password": { url: () => "/reset-password", get: PUBLIC },
  "/update-password": { url: () => "/update-password?token=forged", get: PUBLIC },
  "/logout": { url: () => "/logout", get: REDIRECTS },
  "/login/two-factor": { url: () => "/login/two-factor", get: REDIRECTS },
  "/account": { url: () => "/account", get: SIGNED_IN },
  "/orders": { url: () => "/orders", get: SIGNED_IN },
  // The owner's order only (it has not shipped: the page says why nothing can go back yet).
  "/orders/:orderId/return": {
    url: () => `/orders/${own.orderId}/return`,
    get: [302, 200, 404, 404, 404],
  },
  "/admin": { url: () => "/admin", get: STAFF },
  "/admin/orders": { url: () => "/admin/orders?status=paid", get: STAFF },
  "/admin/orders/export.csv": { url: () => "/admin/orders/export.csv", get: ADMIN },
  "/admin/orders/:orderId": { url: () => "/admin/orders/1", get: STAFF },
  "/admin/customers": { url: () => "/admin/customers", get: ADMIN },
  "/admin/customers/:customerId": { url: () => "/admin/customers/access-buyer", get: ADMIN },
  "/admin/inbox": { url: () => "/admin/inbox", get: ADMIN },
  "/admin/inbox/:kind/:id": { url: () => "/admin/inbox/contact/1", get: ADMIN },
  "/admin/repairs": { url: () => "/admin/repairs", get: STAFF },
  "/admin/repairs/new": { url: () => "/admin/repairs/new", get: STAFF },
  "/admin/repairs/:number": { url: () => "/admin/repairs/R-1002", get: STAFF },
  "/admin/repairs/:number/claim": { url: () => "/admin/repairs/R-1002/claim", get: STAFF },
  "/admin/repairs/:number/edit": { url: () => "/admin/repairs/R-1002/edit", get: STAFF },
  "/admin/returns": { url: () => "/admin/returns?status=all", get: STAFF },
  "/admin/returns/:number": { url: () => "/admin/returns/RMA-1001", get: STAFF },
  "/admin/repairs/:number/photos/:id": { url: () => "/admin/repairs/R-1002/photos/1", get: STAFF },
  "/admin/items": { url: () => "/admin/items", get: ADMIN },
  "/admin/items/new": { url: () => "/admin/items/new", get: ADMIN },
  "/admin/items/import": { url: () => "/admin/items/import", get: ADMIN },
  "/admin/items/export.csv": { url: () => "/admin/items/export.csv", get: ADMIN },
  "/admin/items/:regSerialNo/edit": { url: () => "/admin/items/1/edit", get: ADMIN },
  "/admin/adult/items": { url: () => "/admin/adult/items", get: ADMIN },
  "/admin/adult/items/new": { url: () => "/admin/adult/items/new", get: ADMIN },
  "/admin/adult/items/import": { url: () => "/admin/adult/items/import", get: ADMIN },
  "/admin/adult/items/export.csv": { url: () => "/admin/adult/items/export.csv", get: ADMIN },
  "/admin/adult/items/:adultSerialNo/edit": { url: () => "/admin/adult/items/1/edit", get: ADMIN },
  "/admin/coming-soon": { url: () => "/admin/coming-soon", get: ADMIN },
  "/admin/store-items": { url: () => "/admin/store-items", get: ADMIN },
  "/admin/store-items/new": { url: () => "/admin/store-items/new", get: ADMIN },
  "/admin/store-items/import": { url: () => "/admin/store-items/import", get: ADMIN },
  "/admin/store-items/export.csv": { url: () => "/admin/store-items/export.csv", get: ADMIN },
  // Item 2: the admin's actions take item 1 off sale.
  "/admin/store-items/:id/edit": { url: () => "/admin/store-items/2/edit", get: ADMIN },
  "/counter": { url: () => "/counter", get: STAFF },
  "/counter/till": { url: () => "/counter/till", get: STAFF },
  "/counter/till/export.csv": { url: () => "/counter/till/export.csv", get: STAFF },
  "/counter/pickups": { url: () => "/counter/pickups?code=ZZZZ2222", get: STAFF },
  // No sale was made nor till closed here: staff are told so, anyone else sent away first.
  "/counter/sales/:number": {
    url: () => "/counter/sales/S-100001",
    get: [302, 302, 302, 404, 404],
  },
  "/counter/till/:id": { url: () => "/counter/till/99", get: [302, 302, 302, 404, 404] },
  "/counter/sales/:number/return": {
    url: () => "/counter/sales/S-100001/return",
    get: [302, 302, 302, 404, 404],
  },
  "/counter/returns/:number": {
    url: () => "/counter/returns/CR-100001",
    get: [302, 302, 302, 404, 404],
  },
  // The test card reader stands in for the counter's reader (no Stripe keys here).
  "/counter/test-reader": { url: () => "/counter/test-reader", get: STAFF },
  // Google is not set up here: back to the login page.
  "/auth/google": { url: () => "/auth/google", get: REDIRECTS },
  "/auth/continue": { url: () => "/auth/continue", get: REDIRECTS },
  "/api/auth/*": { url: () => "/api/auth/list-sessions", get: NOT_FOUND },
  "/api/search/suggestions": { url: () => "/api/search/suggestions?q=the", get: PUBLIC },
  "/api/cart/prices": { url: () => "/api/cart/prices", get: NO_GET },
  "/posters/:kind/:file": { url: () => "/posters/regular/none.webp", get: NOT_FOUND },
  "/uploads/posters/:file": { url: () => "/uploads/posters/none.webp", get: NOT_FOUND },
  // This machine only (the test runs on it), and never in production.
  "/dev/mailbox": { url: () => "/dev/mailbox", get: PUBLIC },
  "/dev/mailbox/:id": { url: () => "/dev/mailbox/999999", get: NOT_FOUND },
  "/robots.txt": { url: () => "/robots.txt", get: PUBLIC },
  "/sitemap.xml": { url: () => "/sitemap.xml", get: PUBLIC },
  "/sitemaps/titles/:file": { url: () => "/sitemaps/titles/1.xml", get: PUBLIC },
  "/*": { url: () => "/no-such-page", get: NOT_FOUND },
};

/**
 * What a POST gets from each role (null: an admin's writes are tried in "the back office's
 * actions"). Bodies are either refused for who sends them or invalid, so nothing may change.
 */
const WRITE_MATRIX: Record<
  string,
  {
    url: () => string;
    body: () => Record<string, string>;
    post: [number, number | null, number | null, number | null, number | null];
  }
> = {
  "/age-check": { url: () => "/age-check", body: () => ({}), post: [302, 302, 302, 302, 302] },
  "/contact": { url: () => "/contact", body: () => ({}), post: [400, 400, 400, 400, 400] },
  "/service-request-form": {
    url: () => "/service-request-form",
    body: () => ({}),
    post: [400, 400, 400, 400, 400],
  },
  "/service-request/confirm/:token": {
    url: () => "/service-request/confirm/not-a-token",
    body: () => ({}),
    post: [404, 404, 404, 404, 404],
  },
  "/service-request/cancel/:token": {
    url: () => "/service-request/cancel/1.forged",
    body: () => ({}),
    post: [400, 400, 400, 400, 400],
  },
  // A decision needs the estimate and Approve or Decline: an empty form decides nothing.
  "/repairs/:label/:token": {
    url: () => ticketStatusPath(1002, AUTH_SECRET),
    body: () => ({}),
    post: [400, 400, 400, 400, 400],
  },
  "/cart": { url: () => "/cart", body: () => ({ intent: "pay" }), post: [302, 400, 400, 400, 400] },
  // No title named: nothing is asked for.
  "/alerts": {
    url: () => "/alerts",
    body: () => ({ kind: "restock" }),
    post: [400, 400, 400, 400, 400],
  },
  "/alerts/confirm/:id/:token": {
    url: () => "/alerts/confirm/1/forged",
    body: () => ({}),
    post: [404, 404, 404, 404, 404],
  },
  "/alerts/unsubscribe/:id/:token": {
    url: () => "/alerts/unsubscribe/1/forged",
    body: () => ({}),
    post: [404, 404, 404, 404, 404],
  },
  "/checkout/test-payment/:sessionId": {
    url: () => own.paymentPath,
    // The owner's card is declined here: a valid one would pay (tried in the checkout tests).
    body: () => ({ cardNumber: "4000 0000 0000 0002", expiry: "12/40" }),
    post: [302, 402, 404, 404, 404],
  },
  // Stripe is not set up here; its signed deliveries are tried in the payment tests.
  "/api/webhooks/stripe": {
    url: () => "/api/webhooks/stripe",
    body: () => ({}),
    post: [404, 404, 404, 404, 404],
  },
  "/login": { url: () => "/login", body: () => ({}), post: [400, 302, 302, 302, 302] },
  "/register": { url: () => "/register", body: () => ({}), post: [400, 302, 302, 302, 302] },
  "/reset-password": {
    url: () => "/reset-password",
    body: () => ({}),
    post: [400, 400, 400, 400, 400],
  },
  "/update-password": {
    url: () => "/update-password",
    body: () => ({}),
    post: [400, 400, 400, 400, 400],
  },
  // Signing out is tried in the account tests: here it would end the sessions the test uses.
  "/logout": { url: () => "/logout", body: () => ({}), post: [302, null, null, null, null] },
  "/login/two-factor": {
    url: () => "/login/two-factor",
    body: () => ({}),
    post: [302, 302, 302, 302, 302],
  },
  "/account": {
    url: () => "/account",
    body: () => ({ intent: "profile", firstName: "", lastName: "", dateOfBirth: "1950-01-01" }),
    post: [302, 400, 400, 400, 400],
  },
  // Only the owner may ask, and only for a shipped order: this one is not.
  "/orders/:orderId/return": {
    url: () => `/orders/${own.orderId}/return`,
    body: () => ({ "quantity.regular.5": "1", reason: "Changed my mind", method: "mail" }),
    post: [302, 409, 404, 404, 404],
  },
  "/admin/returns/:number": {
    url: () => "/admin/returns/1001",
    body: () => ({ intent: "reject", from: "requested", reason: "Not ours" }),
    post: [403, 403, 403, 409, null],
  },
  "/admin/orders/:orderId": {
    url: () => "/admin/orders/2",
    body: () => ({ intent: "cancel" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/customers/:customerId": {
    url: () => "/admin/customers/access-buyer",
    body: () => ({ dateOfBirth: "1950-01-01", note: "Changed by someone" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/inbox/:kind/:id": {
    url: () => "/admin/inbox/contact/1",
    body: () => ({ intent: "handled" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/repairs/new": {
    url: () => "/admin/repairs/new",
    body: () => WALK_IN,
    post: [403, 403, 403, null, null],
  },
  "/admin/repairs/:number": {
    url: () => "/admin/repairs/R-1002",
    body: () => ({ intent: "collect", paymentMethod: "cash", paid: "10", key: randomUUID() }),
    post: [403, 403, 403, 409, null],
  },
  "/admin/repairs/:number/edit": {
    url: () => "/admin/repairs/R-1002/edit",
    body: () => ({ ...WALK_IN, seen: "not-what-is-there" }),
    post: [403, 403, 403, 409, null],
  },
  "/admin/items": {
    url: () => "/admin/items",
    body: () => ({ intent: "delete", serialNo: "2" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/items/new": {
    url: () => "/admin/items/new",
    body: () => REGULAR,
    post: [403, 403, 403, 403, null],
  },
  "/admin/items/import": {
    url: () => "/admin/items/import",
    body: () => ({ intent: "import", csv: "RegSerialNo,Title\n1,Renamed By Someone\n" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/items/:regSerialNo/edit": {
    url: () => "/admin/items/1/edit",
    body: () => ({ ...REGULAR, title: "Renamed By Someone" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/adult/items": {
    url: () => "/admin/adult/items",
    body: () => ({ intent: "delete", serialNo: "2" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/adult/items/new": {
    url: () => "/admin/adult/items/new",
    body: () => ADULT,
    post: [403, 403, 403, 403, null],
  },
  "/admin/adult/items/import": {
    url: () => "/admin/adult/items/import",
    body: () => ({ intent: "import", csv: "AdultSerialNo,Title\n1,Renamed By Someone\n" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/adult/items/:adultSerialNo/edit": {
    url: () => "/admin/adult/items/1/edit",
    body: () => ({ ...ADULT, title: "Renamed By Someone" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/coming-soon": {
    url: () => "/admin/coming-soon",
    body: () => ({ intent: "delete", id: "1" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/store-items": {
    url: () => "/admin/store-items",
    body: () => ({ intent: "archive", id: "1" }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/store-items/new": {
    url: () => "/admin/store-items/new",
    body: () => ITEM,
    post: [403, 403, 403, 403, null],
  },
  "/admin/store-items/import": {
    url: () => "/admin/store-items/import",
    body: () => ({ intent: "import", csv: ITEM_CSV }),
    post: [403, 403, 403, 403, null],
  },
  "/admin/store-items/:id/edit": {
    url: () => "/admin/store-items/1/edit",
    body: () => ({ ...ITEM, sku: "ACC-ITEM", stock: "9" }),
    post: [403, 403, 403, 403, null],
  },
  // The counter's forms, badly filled: refused as invalid for staff, 403 for anyone else.
  "/counter": {
    url: () => "/counter?index",
    body: () => ({ intent: "open-till", float: "a lot" }),
    post: [403, 403, 403, 400, 400],
  },
  "/counter/till": {
    url: () => "/counter/till",
    body: () => ({ counted: "" }),
    post: [403, 403, 403, 400, 400],
  },
  "/counter/sales/:number": {
    url: () => "/counter/sales/S-100001",
    body: () => ({ email: "not an address" }),
    post: [403, 403, 403, 400, 400],
  },
  "/counter/pickups": {
    url: () => "/counter/pickups",
    body: () => ({ orderId: "not a number" }),
    post: [403, 403, 403, 400, 400],
  },
  "/counter/sales/:number/return": {
    url: () => "/counter/sales/S-100001/return",
    body: () => ({ intent: "refund", reason: "" }),
    post: [403, 403, 403, 400, 400],
  },
  // No sale is waiting for a card: staff are told the reader has nothing to charge.
  "/counter/test-reader": {
    url: () => "/counter/test-reader",
    body: () => ({ cardNumber: "4242 4242 4242 4242" }),
    post: [403, 403, 403, 409, 409],
  },
  // Google sign-in is not set up here (it is in the browser tests).
  "/auth/google": { url: () => "/auth/google", body: () => ({}), post: [404, 404, 404, 404, 404] },
  "/api/auth/*": {
    url: () => "/api/auth/update-user",
    body: () => ({ name: "Renamed By Someone" }),
    post: [415, 415, 415, 415, 415],
  },
  "/api/cart/prices": {
    url: () => "/api/cart/prices",
    body: () => ({}),
    post: [400, 400, 400, 400, 400],
  },
};

async function ask(role: Role, url: string, init: RequestInit = {}) {
  const cookie = role === "visitor" ? "" : cookies[role];
  const response = await fetch(`${shop.url}${url}`, {
    redirect: "manual",
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });
  await response.body?.cancel();
  return response.status;
}

async function ownOrderStatus() {
  const { rows } = await shopDb.query<{ status: string }>(
    "select status from orders where id = $1",
    [own.orderId],
  );
  return rows[0]!.status;
}

describe("every route of app/routes.ts", () => {
  const routes = routeList(routeConfig as RouteEntry[]);
  const patterns = routes.map((route) => route.pattern);

  it("has an entry in the access matrix, and every entry is a route", () => {
    expect(patterns.filter((pattern) => !(pattern in ROUTE_MATRIX))).toEqual([]);
    expect(Object.keys(ROUTE_MATRIX).filter((pattern) => !patterns.includes(pattern))).toEqual([]);
  });

  it("never shows, pays or cancels another customer's order", async () => {
    const card = new URLSearchParams({ cardNumber: "4242 4242 4242 4242", expiry: "12/40" });
    for (const role of ["other", "clerk", "admin"] as const) {
      expect(await ask(role, own.cancelPath)).toBe(302);
      expect(
        await ask(role, own.paymentPath, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: shop.url },
          body: card.toString(),
        }),
      ).toBe(404);
    }
    expect(await ownOrderStatus()).toBe("pending");
  });

  it("shows a repair's intake photos to staff only, never kept by a cache", async () => {
    const url = `${shop.url}/admin/repairs/R-1002/photos/1`;
    const visitor = await fetch(url, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/admin/repairs/R-1002/photos/1")}`,
    );
    for (const role of ["customer", "other"] as const) {
      const customer = await fetch(url, { redirect: "manual", headers: { Cookie: cookies[role] } });
      expect(customer.status).toBe(302);
      expect(customer.headers.get("location")).toBe("/");
      expect(customer.headers.get("content-type")).not.toBe("image/webp");
    }
    const clerk = await fetch(url, { headers: { Cookie: cookies.clerk } });
    expect(clerk.status).toBe(200);
    expect(clerk.headers.get("content-type")).toBe("image/webp");
    await clerk.body?.cancel();
    const staff = await fetch(url, { headers: { Cookie: cookies.admin } });
    expect(staff.status).toBe(200);
    expect(staff.headers.get("content-type")).toBe("image/webp");
    expect(staff.headers.get("cache-control")).toBe("private, no-store");
    expect((await sharp(Buffer.from(await staff.arrayBuffer())).metadata()).width).toBe(40);
    // Through its own ticket only, and never at a poster's public address.
    expect(await ask("admin", "/admin/repairs/R-1001/photos/1")).toBe(404);
    expect(await ask("admin", "/admin/repairs/R-1002/photos/2")).toBe(404);
    expect(await ask("visitor", `/uploads/posters/${"a".repeat(32)}.webp`)).toBe(404);
  });

  it("never shows or decides one repair ticket through another ticket's link", async () => {
    const otherToken = ticketStatusPath(1002, AUTH_SECRET).split("/").at(-1)!;
    const decide = formPost({ estimateId: "1", decision: "approved" });
    for (const role of ROLES) {
      expect(await ask(role, `/repairs/R-1001/${otherToken}`)).toBe(404);
      expect(await ask(role, `/repairs/R-1002/forged-${otherToken}`)).toBe(404);
      expect(await ask(role, `/repairs/R-1001/${otherToken}`, decide)).toBe(404);
      // A receipt is under its own ticket's link only, and only once the device is collected.
      expect(await ask(role, `/repairs/R-1000/${otherToken}/receipt`)).toBe(404);
      expect(await ask(role, `${ticketStatusPath(1002, AUTH_SECRET)}/receipt`)).toBe(404);
    }
    const { rows } = await shopDb.query("select status from repair_estimates where id = 1");
    expect(rows[0]!.status).toBe("pending");
  });

  it("answers each role as the matrix says", async () => {
    const found: Record<string, number[]> = {};
    const expected: Record<string, number[]> = {};
    for (const pattern of patterns) {
      const entry = ROUTE_MATRIX[pattern]!;
      expected[pattern] = entry.get;
      found[pattern] = [];
      for (const role of ROLES) found[pattern].push(await ask(role, entry.url()));
    }
    expect(found).toEqual(expected);
    expect(await ownOrderStatus()).toBe("pending");
  });

  it("has a write entry for every route that takes writes, and 405 for the others", async () => {
    const writable = routes.filter((route) => takesWrites(route.file)).map((r) => r.pattern);
    expect(writable.filter((pattern) => !(pattern in WRITE_MATRIX))).toEqual([]);
    expect(Object.keys(WRITE_MATRIX).filter((pattern) => !writable.includes(pattern))).toEqual([]);
    for (const route of routes.filter((route) => !takesWrites(route.file))) {
      const url = ROUTE_MATRIX[route.pattern]!.url();
      expect(await ask("customer", url, formPost({})), route.pattern).toBe(405);
    }
  });

  it("refuses every write to whoever may not make it, and the refused writes change nothing", async () => {
    const before = await catalogueState();
    const found: Record<string, (number | null)[]> = {};
    const expected: Record<string, (number | null)[]> = {};
    for (const [pattern, entry] of Object.entries(WRITE_MATRIX)) {
      expected[pattern] = entry.post;
      found[pattern] = [];
      for (const [index, role] of ROLES.entries()) {
        found[pattern].push(
          entry.post[index] === null ? null : await ask(role, entry.url(), formPost(entry.body())),
        );
      }
    }
    expect(found).toEqual(expected);
    expect(await catalogueState()).toEqual(before);
    expect(await ownOrderStatus()).toBe("pending");
  });
});

describe("a customer's stock alerts", () => {
  it("are stopped from My Account by their owner only: anyone else's try is not found", async () => {
    const before = await catalogueState();
    const unsubscribe = formPost({ intent: "alert-unsubscribe", id: String(customerAlertId) });
    expect(await ask("visitor", "/account", unsubscribe)).toBe(302);
    expect(await ask("other", "/account", unsubscribe)).toBe(404);
    expect(await ask("clerk", "/account", unsubscribe)).toBe(404);
    expect(await ask("admin", "/account", unsubscribe)).toBe(404);
    expect(await catalogueState()).toEqual(before);

    expect(await ask("customer", "/account", unsubscribe)).toBe(302);
    const { rows } = await shopDb.query("select status from stock_alerts where id = $1", [
      customerAlertId,
    ]);
    expect(rows[0]).toEqual({ status: "unsubscribed" });
  });
});

function formPost(body: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: shop.url,
      "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 200) + 1}`,
    },
    body: new URLSearchParams(body).toString(),
  };
}
