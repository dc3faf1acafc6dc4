import { isIP } from "node:net";
import { z } from "zod";
import { parseSalesTaxRates } from "#app/lib/sales-tax.ts";
import type { ShopContact } from "#app/lib/site.ts";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const PROXY_PRESETS = ["loopback", "linklocal", "uniquelocal"];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_PRESETS.includes(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  if (extra !== undefined || !address || isIP(address) === 0) return false;
  if (prefix === undefined) return true;
  const bits = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits;
}

/**
 * Which proxies may state the client's address in X-Forwarded-For (DESIGN §3.13): none by
 * default; a hop count ("1": one proxy in front, whatever its address), or a comma-separated
 * list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    if (value === "" || value === "false" || value === "none") return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    const wrong = entries.filter((entry) => !isAddressOrRange(entry));
    if (wrong.length === 0) return entries;
    context.addIssue({
      code: "custom",
      message: `must be a hop count or addresses, CIDR ranges, loopback, linklocal or uniquelocal (not ${wrong.join(", ")})`,
    });
    return z.NEVER;
  });

const schema = z
  .object({
    /**
     * development: `npm run dev` (hot reload). local: `npm start` on a laptop, the production
     * build with local conveniences (development mailbox, generated secrets). production: a real
     * shop; needs SMTP_URL, AUTH_SECRET and PUBLIC_URL.
     */
    APP_ENV: z.enum(["development", "local", "production"]).default("local"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("127.0.0.1"),
    TRUST_PROXY: trustProxy.default(false),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /**
     * The longest a request waits for a database connection: a free one from the pool, or a new
     * one being opened. Past it the request is answered 503 (DESIGN §3.14).
     */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
    /**
     * The longest one statement may run: PostgreSQL cancels it then (statement_timeout), and the
     * shop stops waiting a second later when the database does not answer at all (paused, cut
     * off), closing that connection.
     */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** Rendered pages for signed-out visitors kept per process (0 = no page cache). */
    PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(2000),
    DATA_DIR: z.string().min(1).default("./.data"),
    SEED_DEMO: booleanFlag.default(true),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    /**
     * How long a message that could not be sent waits before its first retry, in seconds; each
     * further wait doubles, up to an hour, for about 40 tries.
     */
    MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
    MAIL_FROM: z.string().min(3).default("Reel & Repair <no-reply@reelandrepair.example>"),
    /** The shop's time zone: repair appointments are offered and shown in it. */
    SHOP_TIME_ZONE: z
      .string()
      .default("America/Chicago")
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat("en-US", { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, "must be an IANA time zone such as America/Chicago"),
    /** Repair appointments: open days (0 = Sunday), hours, slot length and places per slot. */
    REPAIR_OPEN_DAYS: z
      .string()
      .default("1,2,3,4,5,6")
      .transform((value) => value.split(",").map((day) => Number(day.trim())))
      .refine(
        (days) =>
          days.length > 0 && days.every((day) => Number.isInteger(day) && day >= 0 && day <= 6),
        "must list days 0 (Sunday) to 6 (Saturday), e.g. 1,2,3,4,5,6",
      ),
    REPAIR_HOURS: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, "must look like 10:00-18:00")
      .default("10:00-18:00"),
    REPAIR_SLOT_MINUTES: z.coerce.number().int().min(15).max(480).default(60),
    REPAIR_PLACES_PER_SLOT: z.coerce.number().int().min(1).max(50).default(2),
    REPAIR_DAYS_AHEAD: z.coerce.number().int().min(1).max(365).default(60),
    /** How long a booking from an unproven address holds its place awaiting its e-mailed link. */
    REPAIR_CONFIRM_MINUTES: z.coerce.number().int().min(5).max(1440).default(30),
    /**
     * Sales tax on repair estimates (parts and labour), as a fraction: Texas taxes the repair of
     * tangible personal property; 0.0825 is Arlington's combined rate. 0: no tax on repairs.
     */
    REPAIR_SALES_TAX_RATE: z.coerce.number().min(0).max(0.5).default(0.0825),
    /** Where the shop's own notifications go (contact messages, repair bookings). */
    SHOP_EMAIL: z.email().default("hello@reelandrepair.example"),
    /** How customers reach the shop, shown in the footer and on /about. */
    SHOP_PHONE: z
      .string()
      .regex(/^\+?[\d\s().-]{7,24}$/, "must be a phone number such as (817) 555-0142")
      .default("(817) 555-0142"),
    SHOP_HOURS: z.string().min(3).max(120).default("Mon–Sat 10:00–18:00, closed Sunday"),
    SHOP_MAP_URL: z
      .url({ protocol: /^https?$/ })
      .default(
        "https://www.google.com/maps/search/?api=1&query=1201+W+Division+St%2C+Arlington%2C+TX+76012",
      ),
    /** The shop's own social profiles; a link is shown only when its address is set. */
    SHOP_INSTAGRAM_URL: z.url({ protocol: /^https$/ }).optional(),
    SHOP_FACEBOOK_URL: z.url({ protocol: /^https$/ }).optional(),
    SHOP_LINKEDIN_URL: z.url({ protocol: /^https$/ }).optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
    FREE_SHIPPING_THRESHOLD_CENTS: z.coerce.number().int().min(0).default(20000),
    /** Days after shipping during which a customer can ask to return items ("within 30 days"). */
    RETURN_WINDOW_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /**
     * When a return also refunds the order's shipping charge: `when-all-returned` (the return
     * that brings back the last item of the order) or `never`.
     */
    RETURNS_REFUND_SHIPPING: z.enum(["when-all-returned", "never"]).default("when-all-returned"),
    /** Added to the refund of a return sent by mail, toward its postage (returns are free). */
    RETURN_POSTAGE_CENTS: z.coerce.number().int().min(0).max(10000).default(600),
    /**
     * Sales tax on taxable counter sales, as a fraction: 0.0825 is Arlington's combined rate
     * (state 6.25 %, city 1.75 %, transit 0.25 %). 0: no tax at the counter.
     */
    STORE_SALES_TAX_RATE: z.coerce.number().min(0).max(0.2).default(0.0825),
    /** The most a clerk may refund on one order or counter sale, its returns together, in cents. */
    COUNTER_REFUND_LIMIT_CENTS: z.coerce.number().int().min(0).default(10000),
    /** Payment attempts (orders placed) allowed per account, and per client, in 10 minutes. */
    CHECKOUT_ATTEMPTS_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    CHECKOUT_ATTEMPTS_PER_CLIENT: z.coerce.number().int().min(1).default(30),
    /** The back office's dashboard lists titles with this many copies or fewer as low on stock. */
    LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(1000).default(2),
    /** Sales tax per destination state, e.g. `TX:0.0825,CA:0.0725`; empty: no sales tax. */
    SALES_TAX_RATES: z
      .string()
      .default("")
      .transform((value, context) => {
        try {
          return parseSalesTaxRates(value);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, "must be a Stripe secret key")
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, "must start with whsec_")
      .optional(),
    /**
     * The longest the checkout waits for the payment provider to open a payment page; past it
     * the shopper is told "Could not start payment. Try again." and the order is released.
     */
    PAYMENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(80_000).default(20_000),
    /**
     * The counter's Stripe Terminal smart reader (`tmr_…`, decision 023): with Stripe's keys,
     * card payments at the counter go to it. Without it the counter takes cash only.
     */
    STRIPE_TERMINAL_READER_ID: z
      .string()
      .regex(/^tmr_[A-Za-z0-9]+$/, "must be a Stripe Terminal reader id (tmr_…)")
      .optional(),
    /** Only for tests: a local server that answers Stripe's API. */
    STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Who takes payment for orders with adult titles (DESIGN §3.6): `stripe`, `test`, or
     * `disabled` (adult titles cannot be bought online). Default: the regular provider.
     */
    ADULT_PAYMENT_PROVIDER: z.enum(["stripe", "test", "disabled"]).optional(),
    /** `GET /metrics` (Prometheus) answers requests with `Authorization: Bearer <this>`. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** Serve `/metrics` on this port too, without a token (keep the port private). */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** US address autocomplete on the checkout form (Google Places); off when unset. */
    GOOGLE_MAPS_API_KEY: z.string().min(1).optional(),
    /** The Maps JavaScript API; only tests point it elsewhere. */
    GOOGLE_MAPS_SCRIPT_URL: z
      .url({ protocol: /^https?$/ })
      .default("https://maps.googleapis.com/maps/api/js"),
    /** Uploaded posters in an S3-compatible bucket instead of DATA_DIR (docs/posters.md). */
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFlag.optional(),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
  })
  .superRefine((env, context) => {
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      context.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together",
      });
    }
    if (env.ADULT_PAYMENT_PROVIDER === "stripe" && !env.STRIPE_SECRET_KEY) {
      context.addIssue({
        code: "custom",
        path: ["ADULT_PAYMENT_PROVIDER"],
        message: "is stripe but STRIPE_SECRET_KEY is not set",
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      context.addIssue({
        code: "custom",
        path: ["S3_SECRET_ACCESS_KEY"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together",
      });
    }
    const s3Without = (
      ["S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const
    ).filter((key) => env[key] !== undefined);
    if (!env.S3_BUCKET && (s3Without.length > 0 || env.S3_FORCE_PATH_STYLE !== undefined)) {
      context.addIssue({
        code: "custom",
        path: ["S3_BUCKET"],
        message: `is required when ${[...s3Without, ...(env.S3_FORCE_PATH_STYLE !== undefined ? ["S3_FORCE_PATH_STYLE"] : [])].join(", ")} is set`,
      });
    }
    if (env.APP_ENV !== "production") return;
    for (const key of ["SMTP_URL", "AUTH_SECRET", "PUBLIC_URL", "STRIPE_SECRET_KEY"] as const) {
      if (!env[key]) {
        const why = key === "STRIPE_SECRET_KEY" ? " (the test payment page never runs there)" : "";
        context.addIssue({
          code: "custom",
          path: [key],
          message: `is required in production${why}`,
        });
      }
    }
    if (env.ADULT_PAYMENT_PROVIDER === "test") {
      context.addIssue({
        code: "custom",
        path: ["ADULT_PAYMENT_PROVIDER"],
        message: "cannot be the test provider in production",
      });
    }
  });

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Reads and validates the environment once; fails with every problem listed. */
export function getEnv(): Env {
  if (cached) return cached;
  cached = parseEnv(process.env);
  return cached;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const raw = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)
      .join("\n");
    throw new Error(`Invalid configuration:\n${problems}\nSee .env.example for every variable.`);
  }
  return parsed.data;
}

/** The shop's contact details from configuration, for the pages (via the root loader). */
export function shopContact(env: Env = getEnv()): ShopContact {
  const social = [
    { name: "Instagram", href: env.SHOP_INSTAGRAM_URL },
    { name: "Facebook", href: env.SHOP_FACEBOOK_URL },
    { name: "LinkedIn", href: env.SHOP_LINKEDIN_URL },
  ].filter((link): link is { name: string; href: string } => Boolean(link.href));
  return {
    phone: env.SHOP_PHONE,
    email: env.SHOP_EMAIL,
    hours: env.SHOP_HOURS,
    mapUrl: env.SHOP_MAP_URL,
    social,
  };
}

/** The address people reach the shop at, for links in e-mails. */
export function publicUrl(env: Env = getEnv()): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/$/, "");
}
