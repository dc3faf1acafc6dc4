import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";

// Every back-office page and action, asked for by a visitor, a customer and an admin, over real
// HTTP against the real server (the production build must exist).

const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-access-"));
const adminUrl = inject("databaseUrl");
const database = `admin_access_${process.pid}`;
const databaseUrl = adminUrl.replace(/\/[^/]+$/, `/${database}`);
const admin = new pg.Client(adminUrl);
const shopDb = new pg.Client(databaseUrl);
const PASSWORD = "Access-Checker-Pass-9";
let shop: RunningServer;
const cookies: Record<"customer" | "admin", string> = { customer: "", admin: "" };

async function post(pathname: string, body: Record<string, string>, cookie = "") {
  return fetch(`${shop.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: shop.url,
      "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 200) + 1}`,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(body).toString(),
  });
}

async function account(role: "customer" | "admin") {
  const email = `${role}-${process.pid}@example.test`;
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
  return login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${database}`);
  shop = await startServer({
    DATABASE_URL: databaseUrl,
    DATA_DIR: scratchDir,
    PORT: "0",
    SEED_DEMO: "true",
    TRUST_PROXY: "loopback",
  });
  await shopDb.connect();
  cookies.customer = await account("customer");
  cookies.admin = await account("admin");
  await seedRunningTheShop();
}, 60_000);

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
    `insert into contacts (id, name, email, message) values (1, 'Cora Contact', 'cora@example.test', 'Do you buy old DVDs?');
     insert into service_requests (id, name, email, phone, service_type, issue, preferred_date,
       preferred_time, starts_at, confirmed_at)
     values (1, 'Rex Repair', 'rex@example.test', '(817) 555-0101', 'Laptop Repair', 'Screen flickers',
       (now() + interval '3 days')::date, '10:00', now() + interval '3 days', now());`,
  );
}

afterAll(async () => {
  await shop?.stop();
  await shopDb.end();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
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
];

const REGULAR = {
  productId: "ACC-1",
  qtyToList: "1",
  title: "Access Probe",
  releaseYear: "2001",
  disc: "DVD",
  currentPriceCents: "9.99",
};
const ADULT = { productId: "77", priceCents: "9.99", quantity: "1", title: "Access Probe" };

const ACTIONS: { path: string; body: Record<string, string> }[] = [
  { path: "/admin/items", body: { intent: "delete", serialNo: "2" } },
  { path: "/admin/items", body: { intent: "staff-pick", serialNo: "4", on: "true" } },
  { path: "/admin/items/new", body: REGULAR },
  { path: "/admin/items/1/edit", body: { ...REGULAR, title: "Renamed By Someone" } },
  { path: "/admin/adult/items", body: { intent: "delete", serialNo: "2" } },
  { path: "/admin/adult/items/new", body: ADULT },
  { path: "/admin/adult/items/1/edit", body: { ...ADULT, title: "Renamed By Someone" } },
  { path: "/admin/coming-soon", body: { intent: "delete", id: "1" } },
  { path: "/admin/orders/1", body: { intent: "ship", carrier: "UPS", trackingNumber: "1Z1" } },
  { path: "/admin/orders/2", body: { intent: "cancel" } },
  { path: "/admin/orders/3", body: { intent: "complete" } },
  {
    path: "/admin/inbox/contact/1",
    body: { intent: "reply", body: "Yes, we do.", markHandled: "on" },
  },
  { path: "/admin/inbox/contact/1", body: { intent: "handled" } },
  { path: "/admin/inbox/repair/1", body: { intent: "cancel-booking" } },
];

async function catalogueState() {
  const { rows } = await shopDb.query(
    `select (select count(*) from regular_titles)::int as regular,
            (select count(*) from adult_titles)::int as adult,
            (select string_agg(reg_serial_no::text, ',' order by reg_serial_no) from staff_picks) as picks,
            (select count(*) from coming_soon)::int as coming_soon,
            (select count(*) from regular_titles where title = 'Renamed By Someone' or title = 'Access Probe')::int
              + (select count(*) from adult_titles where title = 'Renamed By Someone' or title = 'Access Probe')::int as touched,
            (select string_agg(id || ':' || status, ',' order by id) from orders) as orders,
            (select count(*) from contacts where handled_at is not null)::int as handled,
            (select count(*) from inbox_replies)::int as replies,
            (select count(*) from service_requests where cancelled_at is not null)::int as cancelled_bookings`,
  );
  return rows[0];
}

describe("the back office's pages", () => {
  it.each(PAGES)("%s: visitors go to /login, customers to /, admins see it", async (page) => {
    const visitor = await fetch(`${shop.url}${page}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);

    const customer = await fetch(`${shop.url}${page}`, {
      redirect: "manual",
      headers: { Cookie: cookies.customer },
    });
    expect(customer.status).toBe(302);
    expect(customer.headers.get("location")).toBe("/");

    const staff = await fetch(`${shop.url}${page}`, {
      redirect: "manual",
      headers: { Cookie: cookies.admin },
    });
    expect(staff.status).toBe(200);
    expect(staff.headers.get("cache-control")).toContain("private");
  });
});

describe("the back office's actions", () => {
  it("refuse visitors and customers with 403 and change nothing", async () => {
    const before = await catalogueState();
    const csv =
      "RegSerialNo,ProductID,QtyToList,Title,Disc,CurrentPrice\n1,X,1,Renamed By Someone,DVD,1\n";
    const imports = ["/admin/items/import", "/admin/adult/items/import"].map((path) => ({
      path,
      body: { intent: "import", csv },
    }));
    for (const action of [...ACTIONS, ...imports]) {
      for (const cookie of ["", cookies.customer]) {
        const response = await post(action.path, action.body, cookie);
        expect(response.status, `${action.path} ${cookie ? "customer" : "visitor"}`).toBe(403);
      }
    }
    expect(await catalogueState()).toEqual(before);
  });

  it("work for an admin", async () => {
    for (const action of ACTIONS) {
      const response = await post(action.path, action.body, cookies.admin);
      expect([200, 302, 409], action.path).toContain(response.status);
    }
    const after = await catalogueState();
    expect(after.touched).toBeGreaterThanOrEqual(3);
    expect(after).toMatchObject({
      orders: "1:shipped,2:cancelled,3:completed",
      handled: 1,
      replies: 1,
      cancelled_bookings: 1,
    });
  });
});
