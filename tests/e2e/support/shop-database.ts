import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { clusterDirOf, passwordFileOf, runningPort } from "#server/embedded-postgres.ts";

const dataDir = path.resolve(".tmp/e2e-data");

/**
 * The browser tests' shop keeps its data in an embedded database; a test that needs time to have
 * passed (the shop's clock cannot be moved) changes a date there, as the days would have.
 */
async function connectShopDatabase(): Promise<pg.Client> {
  const port = runningPort(clusterDirOf(dataDir));
  if (!port) throw new Error("The browser tests' shop database is not running.");
  const password = fs.readFileSync(passwordFileOf(dataDir), "utf8");
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: "postgres",
    password,
    database: "shop",
  });
  await client.connect();
  return client;
}

async function withShopDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectShopDatabase();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The shop has one till, and the counter's spec files run on workers of their own: each test
 * that works at the till holds it (a lock in the shop's database, waited for, never polled) and
 * lets go when it ends, so no other test opens, closes or sells at it meanwhile.
 */
export async function holdTheTill(): Promise<() => Promise<void>> {
  const client = await connectShopDatabase();
  await client.query("select pg_advisory_lock(hashtext('e2e: the till'))");
  // Its session ending lets the lock go.
  return () => client.end();
}

/** The order shipped `days` ago, as if that long had passed since staff marked it shipped. */
export async function backdateShipment(orderId: number, days: number) {
  await withShopDatabase((client) =>
    client.query("update orders set shipped_at = now() - make_interval(days => $2) where id = $1", [
      orderId,
      days,
    ]),
  );
}

/** The account given a staff role, as `admin:create` promotes an existing account. */
export async function makeStaff(email: string, role: "admin" | "clerk" = "admin") {
  const { rowCount } = await withShopDatabase((client) =>
    client.query("update users set role = $2, updated_at = now() where email = $1", [email, role]),
  );
  if (rowCount !== 1) throw new Error(`No account ${email} to make a ${role}.`);
}

/** The repair ticket's promised date some days back, as if that long had passed since intake. */
export async function backdatePromise(ticketNumber: number, days: number) {
  await withShopDatabase((client) =>
    client.query(
      "update repair_tickets set promised_date = current_date - $2::int where number = $1",
      [ticketNumber, days],
    ),
  );
}

/**
 * A repair ticket returned to its customer `days` ago (a walk-in, no booking), as if that long
 * had passed since staff closed it; returns its number.
 */
export async function closedRepairTicket(days: number): Promise<number> {
  const { rows } = await withShopDatabase((client) =>
    client.query<{ number: number }>(
      `insert into repair_tickets (customer_name, customer_email, customer_phone, service_type,
         device_kind, device_brand, device_model, problem, condition_at_intake, promised_date,
         status, closed_at)
       values ('Rory Returned', 'rory@example.test', '(817) 555-0123', 'PC & Laptop Repair',
         'Laptop', 'Lenovo', 'T480', 'No power', 'Worn keys', current_date - $1::int,
         'returned', now() - make_interval(days => $1))
       returning number`,
      [days],
    ),
  );
  return rows[0]!.number;
}

/** The secret the browser tests' shop signs its links with (generated in its data folder). */
export function shopAuthSecret(): string {
  return fs.readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim();
}

/** A regular title's copies set in the database, as a delivery counted in elsewhere would. */
export async function setRegularStock(regSerialNo: string, qty: number) {
  const { rowCount } = await withShopDatabase((client) =>
    client.query("update regular_titles set qty_to_list = $2 where reg_serial_no = $1", [
      Number(regSerialNo),
      qty,
    ]),
  );
  if (rowCount !== 1) throw new Error(`No regular title ${regSerialNo}.`);
}

/** A barcode of this run's own: 13 digits with a valid EAN check digit. */
export function shelfBarcode(): string {
  const body = `2${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}`;
  let sum = 0;
  for (let i = body.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(body[i]) * weight;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/**
 * A product on the shelf with a barcode, as the back office would have added it (its forms are
 * tested in admin-catalogue and admin-store-items): a regular or adult title, or a store item.
 * Returns its serial or id.
 */
export async function shelveProduct(input: {
  type: "regular" | "adult" | "item";
  name: string;
  priceCents: number;
  stock: number;
  barcode: string;
}): Promise<number> {
  return withShopDatabase(async (client) => {
    const { rows } = await client.query<{ id: number }>(
      input.type === "regular"
        ? `insert into regular_titles (product_id, title, disc, qty_to_list, current_price_cents)
           values ('COUNTER-' || $4, $1, 'DVD', $3, $2) returning reg_serial_no as id`
        : input.type === "adult"
          ? `insert into adult_titles (product_id, production, title, quantity, price_cents)
             values (900001, 'Counter Tests ' || $4, $1, $3, $2) returning adult_serial_no as id`
          : `insert into store_items (sku, name, price_cents, stock)
             values ('CT-' || $4, $1, $2, $3) returning id`,
      [input.name, input.priceCents, input.stock, input.barcode],
    );
    const id = rows[0]!.id;
    await client.query(
      "insert into product_barcodes (barcode, product_type, product_id) values ($1, $2, $3)",
      [input.barcode, input.type, id],
    );
    return id;
  });
}
