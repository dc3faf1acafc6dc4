import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import { clientAddresses, postForm, withCookie } from "#tests/support/form-post.ts";
import { type RunningServer, startServer } from "#tests/support/server-process.ts";
import { freePort } from "./free-port.ts";

// Checkout tried as an attacker would, over real HTTP against the real server entry (the
// production build must exist: `npm run build`).

const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-checkout-trust-"));
const { url: databaseUrl } = emptyDatabase("checkout_trust");
const shopDb = new pg.Client(databaseUrl);
const PASSWORD = "Checkout-Trust-Pass-8";
let shop: RunningServer;
/** The shop as a phone on the LAN reaches it: not the host PUBLIC_URL names. */
let otherName: string;
let counter = 0;

const SHIPPING = {
  name: "Tess Trust",
  address: "1 Main St",
  city: "Arlington",
  state: "TX",
  postalCode: "76012",
  phone: "(817) 555-0100",
  email: "tess@example.test",
};

const nextClient = clientAddresses("203.0");

async function post(pathname: string, body: Record<string, string>, cookie = "") {
  return postForm(otherName, pathname, body, {
    "X-Forwarded-For": nextClient(),
    ...withCookie(cookie),
  });
}

async function get(pathname: string, cookie: string, headers: Record<string, string> = {}) {
  return fetch(`${otherName}${pathname}`, {
    redirect: "manual",
    headers: { Cookie: cookie, ...headers },
  });
}

/** A confirmed customer, signed in: the session cookie. */
async function customer(label: string, dateOfBirth = "1980-01-01") {
  const email = `${label}-${process.pid}-${(counter += 1)}@example.test`;
  const registered = await post("/register", {
    firstName: "Tess",
    lastName: "Trust",
    dateOfBirth,
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(registered.status).toBe(200);
  await shopDb.query("update users set email_verified = true where email = $1", [email]);
  const login = await post("/login", { intent: "login", email, password: PASSWORD });
  expect(login.status).toBe(302);
  const cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const { rows } = await shopDb.query<{ id: string }>("select id from users where email = $1", [
    email,
  ]);
  return { cookie, id: rows[0]!.id, email };
}

async function inStockRegular(quantity = 5): Promise<number> {
  const { rows } = await shopDb.query<{ serial: number }>(
    `select reg_serial_no as serial from regular_titles where qty_to_list >= $1
      order by reg_serial_no limit 1 offset $2`,
    [quantity, counter % 20],
  );
  return rows[0]!.serial;
}

type Line = { productType: "regular" | "adult"; serialNo: number; quantity: number };

/** "Pay $x.xx" on the review step, as the page posts it. */
async function pay(
  cookie: string,
  lines: Line[],
  shipping: Record<string, string> = SHIPPING,
  checkoutKey: string = crypto.randomUUID(),
) {
  return post(
    "/cart",
    {
      ...shipping,
      shippingMethod: "standard",
      lines: JSON.stringify(lines),
      intent: "pay",
      checkoutKey,
    },
    cookie,
  );
}

async function orderOf(userId: string) {
  const { rows } = await shopDb.query<{ id: string; status: string }>(
    "select id, status from orders where user_id = $1 order by id desc limit 1",
    [userId],
  );
  return rows[0] ? { id: Number(rows[0].id), status: rows[0].status } : undefined;
}

beforeAll(async () => {
  const port = await freePort();
  shop = await startServer({
    DATABASE_URL: databaseUrl,
    DATA_DIR: scratchDir,
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    SEED_DEMO: "true",
    TRUST_PROXY: "loopback",
    SALES_TAX_RATES: "TX:0.0825",
  });
  otherName = `http://127.0.0.1:${port}`;
  await shopDb.connect();
});

afterAll(async () => {
  await shop?.stop();
  await shopDb.end();
  fs.rmSync(scratchDir, { recursive: true, force: true });
});

describe("leaving the payment page", () => {
  it("a link on another site cannot cancel a shopper's unpaid order", async () => {
    const buyer = await customer("cancel");
    const paid = await pay(buyer.cookie, [
      { productType: "regular", serialNo: await inStockRegular(), quantity: 1 },
    ]);
    expect(paid.status).toBe(302);
    const order = (await orderOf(buyer.id))!;
    expect(order.status).toBe("pending");

    // Order numbers are sequential and the cookie goes along with a top-level GET (SameSite=Lax).
    for (const query of [`order=${order.id}`, `order=${order.id}&token=forged`]) {
      const forged = await get(`/checkout/cancel?${query}`, buyer.cookie, {
        "Sec-Fetch-Site": "cross-site",
      });
      expect(forged.status).toBe(302);
      expect((await orderOf(buyer.id))!.status).toBe("pending");
    }

    // The shopper's own way back from the payment page still cancels.
    const page = await get(paid.headers.get("location")!, buyer.cookie);
    const html = await page.text();
    const cancelLink = /href="(\/checkout\/cancel\?[^"]+)"/
      .exec(html)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(cancelLink).toMatch(
      new RegExp(`^/checkout/cancel\\?order=${order.id}&token=[\\w-]{43}$`),
    );
    const cancelled = await get(cancelLink!, buyer.cookie);
    expect(cancelled.headers.get("location")).toBe("/cart?payment=cancelled");
    expect((await orderOf(buyer.id))!.status).toBe("cancelled");
  });
});

describe("same-site redirects", () => {
  it("stay on the name the shop was opened under (a phone on the LAN, 127.0.0.1)", async () => {
    const buyer = await customer("redirects");
    const paid = await pay(buyer.cookie, [
      { productType: "regular", serialNo: await inStockRegular(), quantity: 1 },
    ]);
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toMatch(/^\/checkout\/test-payment\//);
  });
});

describe("sales tax", () => {
  it("follows where the parcel goes: a ZIP code of another state is refused next to the field", async () => {
    const buyer = await customer("zip");
    const lines = [{ productType: "regular", serialNo: await inStockRegular(), quantity: 1 }];
    const elsewhere = { ...SHIPPING, state: "DE" };
    const review = await post(
      "/cart",
      { ...elsewhere, shippingMethod: "standard", lines: JSON.stringify(lines) },
      buyer.cookie,
    );
    expect(review.status).toBe(400);
    expect(await review.text()).toContain("ZIP code 76012 is not in Delaware.");

    const paid = await pay(buyer.cookie, lines as Line[], elsewhere);
    expect(paid.status).toBe(400);
    expect(await orderOf(buyer.id)).toBeUndefined();

    const texas = await pay(buyer.cookie, lines as Line[]);
    expect(texas.status).toBe(302);
    const { rows } = await shopDb.query<{ tax_cents: number }>(
      "select tax_cents from orders where user_id = $1",
      [buyer.id],
    );
    expect(rows[0]!.tax_cents).toBeGreaterThan(0);
  });
});

describe("unpaid orders", () => {
  async function stockOf(serial: number) {
    const { rows } = await shopDb.query<{ qty: number }>(
      "select qty_to_list as qty from regular_titles where reg_serial_no = $1",
      [serial],
    );
    return rows[0]!.qty;
  }

  it("one account holds one open checkout: paying again releases the earlier unpaid order", async () => {
    const buyer = await customer("one-open");
    const serial = await inStockRegular(6);
    const before = await stockOf(serial);
    for (let attempt = 0; attempt < 4; attempt++) {
      const paid = await pay(buyer.cookie, [
        { productType: "regular", serialNo: serial, quantity: 2 },
      ]);
      expect(paid.status).toBe(302);
    }
    const { rows } = await shopDb.query<{ status: string; count: number }>(
      "select status, count(*)::int as count from orders where user_id = $1 group by 1 order by 1",
      [buyer.id],
    );
    expect(rows).toEqual([
      { status: "cancelled", count: 3 },
      { status: "pending", count: 1 },
    ]);
    expect(await stockOf(serial)).toBe(before - 2);
  });

  it("limits payment attempts per account and per client, with a clear answer", async () => {
    const buyer = await customer("limited");
    const serial = await inStockRegular(2);
    const line = [{ productType: "regular" as const, serialNo: serial, quantity: 1 }];
    const client = nextClient();
    const attempt = () =>
      fetch(`${otherName}/cart`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: otherName,
          "X-Forwarded-For": client,
          Cookie: buyer.cookie,
        },
        body: new URLSearchParams({
          ...SHIPPING,
          shippingMethod: "standard",
          lines: JSON.stringify(line),
          intent: "pay",
          checkoutKey: crypto.randomUUID(),
        }).toString(),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 10).every((status) => status === 302)).toBe(true);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.text()).toContain(
      "Too many payment attempts in a short time. Please wait a few minutes and try again.",
    );
    const { rows } = await shopDb.query<{ count: number }>(
      "select count(*)::int as count from orders where user_id = $1",
      [buyer.id],
    );
    expect(rows[0]!.count).toBe(10);
  });
});

describe("the age rule", () => {
  async function inStockAdult(): Promise<number> {
    const { rows } = await shopDb.query<{ serial: number }>(
      "select adult_serial_no as serial from adult_titles where quantity >= 3 order by adult_serial_no limit 1",
    );
    return rows[0]!.serial;
  }
  async function birthDateOf(userId: string) {
    const { rows } = await shopDb.query<{ born: string | null }>(
      "select to_char(date_of_birth, 'YYYY-MM-DD') as born from customers where id = $1",
      [userId],
    );
    return rows[0]!.born;
  }

  it("checks a date of birth the buyer cannot raise; staff correct it, and the order records it", async () => {
    const minor = await customer("minor", "2012-05-01");
    const adultLine: Line[] = [
      { productType: "adult", serialNo: await inStockAdult(), quantity: 1 },
    ];
    const refused = await pay(minor.cookie, adultLine);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(
      "Adult titles can only be bought by customers aged 18 or older.",
    );

    const edited = await post(
      "/account",
      { intent: "profile", firstName: "Tess", lastName: "Trust", dateOfBirth: "1990-01-01" },
      minor.cookie,
    );
    expect(edited.status).toBe(400);
    expect(await edited.text()).toContain("it cannot be changed here");
    expect(await birthDateOf(minor.id)).toBe("2012-05-01");
    expect((await pay(minor.cookie, adultLine)).status).toBe(409);
    // Names can still be changed with the date of birth as it is.
    const renamed = await post(
      "/account",
      { intent: "profile", firstName: "Tessa", lastName: "Trust", dateOfBirth: "2012-05-01" },
      minor.cookie,
    );
    expect(renamed.status).toBe(302);

    // Staff correct it (an ID seen at the counter), and the history names them.
    const staff = await customer("staff");
    await shopDb.query("update users set role = 'admin' where id = $1", [staff.id]);
    const customerRefused = await post(
      `/admin/customers/${minor.id}`,
      { dateOfBirth: "1990-01-01", note: "ID seen" },
      minor.cookie,
    );
    expect(customerRefused.status).toBe(403);
    expect(await birthDateOf(minor.id)).toBe("2012-05-01");
    const corrected = await post(
      `/admin/customers/${minor.id}`,
      { dateOfBirth: "2001-05-01", note: "Driving licence seen at the counter" },
      staff.cookie,
    );
    expect(corrected.status).toBe(302);
    const { rows: history } = await shopDb.query(
      `select to_char(from_date, 'YYYY-MM-DD') as "from", to_char(to_date, 'YYYY-MM-DD') as "to",
              actor_id as actor, note
         from customer_birth_date_changes where customer_id = $1 order by id`,
      [minor.id],
    );
    expect(history).toEqual([
      { from: null, to: "2012-05-01", actor: null, note: null },
      {
        from: "2012-05-01",
        to: "2001-05-01",
        actor: staff.id,
        note: "Driving licence seen at the counter",
      },
    ]);
    const page = await get(`/admin/customers/${minor.id}`, staff.cookie);
    expect(await page.text()).toContain("Driving licence seen at the counter");

    expect((await pay(minor.cookie, adultLine)).status).toBe(302);
    const { rows } = await shopDb.query(
      "select to_char(buyer_date_of_birth, 'YYYY-MM-DD') as born from orders where user_id = $1 and status = 'pending'",
      [minor.id],
    );
    expect(rows).toEqual([{ born: "2001-05-01" }]);
  });
});

describe("order e-mails", () => {
  it("go to the account's proven address, never to an address typed at checkout", async () => {
    const buyer = await customer("mail-to");
    const stranger = `stranger-${process.pid}@example.test`;
    const paid = await pay(
      buyer.cookie,
      [{ productType: "regular", serialNo: await inStockRegular(), quantity: 1 }],
      { ...SHIPPING, name: "Visit evil example now", email: stranger },
    );
    expect(paid.status).toBe(302);
    const card = await post(
      paid.headers.get("location")!,
      { cardNumber: "4242 4242 4242 4242", expiry: "12/40" },
      buyer.cookie,
    );
    expect(card.status).toBe(302);
    const mailTo = async (address: string) => {
      const { rows } = await shopDb.query<{ subject: string }>(
        "select data->>'subject' as subject from pgboss.job where name = 'mail-send' and data->>'to' = $1",
        [address],
      );
      return rows.map((row) => row.subject);
    };
    expect(await mailTo(stranger)).toEqual([]);
    expect((await mailTo(buyer.email)).join()).toMatch(/order #\d+ is confirmed/);
  });
});
