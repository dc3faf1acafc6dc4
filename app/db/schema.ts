import { relations, sql, type AnyColumn } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import type {
  PaymentMethod,
  TicketCorrection,
  TicketStatus,
} from "#app/domain/repair-tickets/status.ts";
import type { AlertKind, AlertStatus } from "#app/domain/alerts/status.ts";
import type {
  LineCondition,
  ReturnMethod,
  ReturnReason,
  ReturnStatus,
} from "#app/domain/returns/status.ts";
import type { Disc, ProductType, ServiceType } from "#app/lib/catalog.ts";
import type { OrderStatus } from "#app/domain/orders/status.ts";
import type { StockProduct, StockReason } from "#app/domain/stock/status.ts";
import type { RefundMethod, SaleStatus, TenderMethod } from "#app/domain/counter/status.ts";
import type { RepairPaymentKind, RepairPaymentMethod } from "#app/domain/repair-tickets/status.ts";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/**
 * The text the back office searches a regular title by (spec: serial, title, genres, director,
 * cast, disc, release year), one trigram-indexed expression so a contains-search stays fast at
 * 100,000+ titles. Fields are joined by a control character nobody can type into the search.
 */
export function regularAdminSearchText(t: {
  regSerialNo: AnyColumn;
  title: AnyColumn;
  genres: AnyColumn;
  director: AnyColumn;
  cast: AnyColumn;
  disc: AnyColumn;
  releaseYear: AnyColumn;
}) {
  return sql`(${t.regSerialNo}::text || chr(31) || ${t.title} || chr(31) || coalesce(${t.genres}, '') || chr(31) || coalesce(${t.director}, '') || chr(31) || coalesce(${t.cast}, '') || chr(31) || ${t.disc} || chr(31) || coalesce(${t.releaseYear}::text, ''))`;
}

/**
 * The text a shopper's search matches a regular title by: title, director and cast, in one
 * trigram-indexed expression (contains-match and typo-tolerant word similarity). Narrower than the
 * back office's, so "dvd" or "2001" does not match every DVD or every film of that year.
 */
export function regularShopperSearchText(t: {
  title: AnyColumn;
  director: AnyColumn;
  cast: AnyColumn;
}) {
  return sql`(${t.title} || chr(31) || coalesce(${t.director}, '') || chr(31) || coalesce(${t.cast}, ''))`;
}

/** The "Newest" sort's key: the release year, 0 for a title without one (sorted last). */
export function newestKey(releaseYear: AnyColumn) {
  return sql`coalesce(${releaseYear}, 0)`;
}

/** A title's genres as a list ("Drama, War" → {Drama,War}), indexed for the genre filter. */
export function regularGenreList(genres: AnyColumn) {
  return sql`regexp_split_to_array(btrim(${genres}), '[[:space:]]*,[[:space:]]*')`;
}

/** The same for adult titles: serial, title, production. */
export function adultAdminSearchText(t: {
  adultSerialNo: AnyColumn;
  title: AnyColumn;
  production: AnyColumn;
}) {
  return sql`(${t.adultSerialNo}::text || chr(31) || ${t.title} || chr(31) || coalesce(${t.production}, ''))`;
}

export const regularTitles = pgTable(
  "regular_titles",
  {
    regSerialNo: integer("reg_serial_no").primaryKey().generatedByDefaultAsIdentity(),
    productId: text("product_id").notNull(),
    qtyToList: integer("qty_to_list").notNull().default(0),
    title: text("title").notNull(),
    releaseYear: integer("release_year"),
    disc: text("disc").$type<Disc>().notNull(),
    type: text("type"),
    currentPriceCents: integer("current_price_cents").notNull(),
    description: text("description"),
    genres: text("genres"),
    director: text("director"),
    cast: text("cast"),
    posterUrl: text("poster_url"),
    ...timestamps,
  },
  (t) => [
    check(
      "regular_titles_disc_check",
      sql`${t.disc} in ('DVD', 'Blu-ray', '4K/Blu-ray', 'Collections')`,
    ),
    check("regular_titles_qty_check", sql`${t.qtyToList} >= 0`),
    check("regular_titles_price_check", sql`${t.currentPriceCents} >= 0`),
    check(
      "regular_titles_year_check",
      sql`${t.releaseYear} is null or ${t.releaseYear} between 1900 and 2100`,
    ),
    index("regular_titles_title_trgm").using("gin", sql`${t.title} gin_trgm_ops`),
    index("regular_titles_admin_search_trgm").using(
      "gin",
      sql`${regularAdminSearchText(t)} gin_trgm_ops`,
    ),
    index("regular_titles_shopper_search_trgm").using(
      "gin",
      sql`${regularShopperSearchText(t)} gin_trgm_ops`,
    ),
    index("regular_titles_genres").using("gin", regularGenreList(t.genres)),
    index("regular_titles_title_sort").on(t.title, t.regSerialNo),
    index("regular_titles_disc_serial").on(t.disc, t.regSerialNo),
    index("regular_titles_disc_title_sort").on(t.disc, t.title, t.regSerialNo),
    // The back office sorts by price and year; stock (changed by every order) stays unindexed.
    index("regular_titles_price_sort").on(t.currentPriceCents, t.regSerialNo),
    index("regular_titles_year_sort").on(t.releaseYear, t.regSerialNo),
    // The shop's "Newest" sort: latest release first, titles without a year (0) last. A key that
    // is never null, so a deep page can start after a remembered title's keys (regular-titles).
    // The year itself last (never deciding the order, serials being unique) lets the walk read
    // the index alone: PostgreSQL reads an expression's column from the table otherwise.
    index("regular_titles_newest_sort").on(newestKey(t.releaseYear), t.regSerialNo, t.releaseYear),
    // A title page's "more by this director".
    index("regular_titles_director").on(t.director),
  ],
);

export const adultTitles = pgTable(
  "adult_titles",
  {
    adultSerialNo: integer("adult_serial_no").primaryKey().generatedByDefaultAsIdentity(),
    productId: integer("product_id").notNull(),
    condition: text("condition"),
    priceCents: integer("price_cents").notNull(),
    quantity: integer("quantity").notNull().default(0),
    title: text("title").notNull(),
    production: text("production"),
    releaseDate: date("release_date"),
    disc: text("disc").$type<Disc>(),
    genre: text("genre"),
    posterUrl: text("poster_url"),
    description: text("description"),
    ...timestamps,
  },
  (t) => [
    check("adult_titles_quantity_check", sql`${t.quantity} >= 0`),
    check("adult_titles_price_check", sql`${t.priceCents} >= 0`),
    index("adult_titles_title_trgm").using("gin", sql`${t.title} gin_trgm_ops`),
    index("adult_titles_production_trgm").using("gin", sql`${t.production} gin_trgm_ops`),
    index("adult_titles_admin_search_trgm").using(
      "gin",
      sql`${adultAdminSearchText(t)} gin_trgm_ops`,
    ),
    index("adult_titles_title_sort").on(t.title, t.adultSerialNo),
  ],
);

/**
 * Row counts of the catalogues (per disc, and "" for all), kept exact by statement triggers
 * (migration 0002) so list pages never count 100,000 rows to draw their pagination.
 */
export const catalogueCounts = pgTable(
  "catalogue_counts",
  {
    catalogue: text("catalogue").$type<"regular" | "adult">().notNull(),
    disc: text("disc").notNull(),
    total: bigint("total", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.catalogue, t.disc] })],
);

/**
 * How many regular titles list each genre, for every disc ('') and per disc; kept exact by
 * triggers (drizzle/0012_genre_counts.sql) so a genre's page count is a key read, not a count.
 */
export const genreCounts = pgTable(
  "genre_counts",
  {
    genre: text("genre").notNull(),
    disc: text("disc").notNull(),
    total: bigint("total", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.genre, t.disc] })],
);

/**
 * Every word of the regular titles' titles, directors and cast (lower case, split where a letter
 * or digit ends), with how many titles hold it in their title and anywhere: the search's
 * spelling corrections look a typo up among these few thousand words (trigram index) instead of
 * comparing it with every title, and a one- or two-letter search learns here whether any title
 * holds it. Kept exact by triggers on regular_titles (drizzle/0028_search_words.sql).
 */
export const searchWords = pgTable(
  "search_words",
  {
    word: text("word").primaryKey(),
    /** Titles whose title holds the word. */
    titles: integer("titles").notNull().default(0),
    /** Titles whose title, director or cast holds it. */
    total: integer("total").notNull().default(0),
  },
  (t) => [index("search_words_word_trgm").using("gin", sql`${t.word} gin_trgm_ops`)],
);

/**
 * What a shopper's search matches of each regular title (its title, director and cast) beside
 * its serial number, and nothing else: the full search collects a text's matches here (trigram
 * indexes) and sorts them by title. A common word is in a large share of the titles, spread over
 * the whole catalogue; fetched from regular_titles, whose rows are several times as wide, its
 * matches touched nearly every page of that table (at a million titles, "the": 25,000 pages and
 * 0.6–0.9 s). Kept by triggers on regular_titles (drizzle/0046_regular_title_search.sql).
 */
export const regularTitleSearch = pgTable(
  "regular_title_search",
  {
    regSerialNo: integer("reg_serial_no")
      .primaryKey()
      .references(() => regularTitles.regSerialNo, { onDelete: "cascade", onUpdate: "cascade" }),
    title: text("title").notNull(),
    director: text("director"),
    cast: text("cast"),
  },
  (t) => [
    index("regular_title_search_title_trgm").using("gin", sql`${t.title} gin_trgm_ops`),
    index("regular_title_search_shopper_trgm").using(
      "gin",
      sql`${regularShopperSearchText(t)} gin_trgm_ops`,
    ),
  ],
);

/**
 * Each genre a regular title lists, with the title's price and disc: the genre filter's price
 * sorts walk one genre's slice of the price index here instead of the whole catalogue's price
 * index, title by title. Kept by triggers on regular_titles (drizzle/0020_genre_price_order.sql).
 */
export const regularTitleGenres = pgTable(
  "regular_title_genres",
  {
    regSerialNo: integer("reg_serial_no").notNull(),
    genre: text("genre").notNull(),
    currentPriceCents: integer("current_price_cents").notNull(),
    disc: text("disc").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.regSerialNo, t.genre] }),
    // Disc last: a disc filter is read from the index too, without visiting the table.
    index("regular_title_genres_price_sort").on(
      t.genre,
      t.currentPriceCents,
      t.regSerialNo,
      t.disc,
    ),
  ],
);

export const comingSoon = pgTable(
  "coming_soon",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    title: text("title").notNull(),
    releaseDate: date("release_date").notNull(),
    posterUrl: text("poster_url").notNull(),
    description: text("description"),
    /**
     * The catalogue title staff linked the entry to once it arrived (its release alerts went
     * out then); a signup on a linked entry is that title's back-in-stock alert.
     */
    regSerialNo: integer("reg_serial_no").references(() => regularTitles.regSerialNo, {
      onDelete: "set null",
    }),
    createdAt: timestamps.createdAt,
  },
  (t) => [index("coming_soon_release_date").on(t.releaseDate, t.id)],
);

export const staffPicks = pgTable(
  "staff_picks",
  {
    regSerialNo: integer("reg_serial_no")
      .primaryKey()
      .references(() => regularTitles.regSerialNo, { onDelete: "cascade" }),
    createdAt: timestamps.createdAt,
  },
  (t) => [index("staff_picks_created_at").on(t.createdAt)],
);

// Tables of the auth library (better-auth), with its admin, two-factor and database rate-limit
// additions. Field names are the library's; columns are snake_case like the rest.
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  // The customer profile's name and birth date, copied here by a trigger on `customers` (migration
  // 0042) so the session's one statement reads who is signed in whole: the profile stays the
  // source, these are never written by the shop's code.
  profileFirstName: text("profile_first_name"),
  profileLastName: text("profile_last_name"),
  profileDateOfBirth: date("profile_date_of_birth"),
  ...timestamps,
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    impersonatedBy: text("impersonated_by"),
    ...timestamps,
  },
  (t) => [
    index("sessions_user_id").on(t.userId),
    // The retention sweep deletes the expired ones in batches: each batch found through this
    // instead of a scan of the table (the expiry changes about once a day a session).
    index("sessions_expires_at").on(t.expiresAt),
  ],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (t) => [index("accounts_user_id").on(t.userId)],
);

/**
 * The sign-in tables' links, so that Better Auth reads a session with its user (and an account
 * with its user) in one statement instead of two (`advanced.database.joins` in auth.server.ts):
 * every signed-in request begins with that read.
 */
export const usersRelations = relations(users, ({ many }) => ({
  sessions: many(sessions),
  accounts: many(accounts),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, { fields: [sessions.userId], references: [users.id] }),
}));

export const accountsRelations = relations(accounts, ({ one }) => ({
  user: one(users, { fields: [accounts.userId], references: [users.id] }),
}));

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [
    index("verifications_identifier").on(t.identifier),
    // As the sessions': the retention sweep's batches of expired ones.
    index("verifications_expires_at").on(t.expiresAt),
  ],
);

export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factors_user_id").on(t.userId)],
);

/** Sign-in and reset attempts per client, shared by every server process. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/** Profile row of a signed-in person; `id` is the auth user's id. */
export const customers = pgTable(
  "customers",
  {
    id: text("id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    dateOfBirth: date("date_of_birth"),
    ...timestamps,
  },
  (t) => [
    index("customers_created").on(t.createdAt, t.id),
    index("customers_admin_search_trgm").using("gin", sql`${customerSearchText(t)} gin_trgm_ops`),
  ],
);

/**
 * Every change of a customer's date of birth (the one that decides adult purchases), written by
 * the database itself: the customer gives it once, staff correct it (migration 0015).
 */
export const customerBirthDateChanges = pgTable(
  "customer_birth_date_changes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    fromDate: date("from_date"),
    toDate: date("to_date"),
    /** The staff member who corrected it; null when the customer gave it. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name"),
    note: text("note"),
    createdAt: timestamps.createdAt,
  },
  (t) => [index("customer_birth_date_changes_customer").on(t.customerId, t.id)],
);

/** The text the back office searches orders by: the shipping name and e-mail, lower-cased. */
export function orderSearchText(t: { shippingName: AnyColumn; shippingEmail: AnyColumn }) {
  return sql`lower(${t.shippingName} || chr(31) || ${t.shippingEmail})`;
}

/** The same for customers: e-mail, first and last name. */
export function customerSearchText(t: {
  email: AnyColumn;
  firstName: AnyColumn;
  lastName: AnyColumn;
}) {
  return sql`lower(${t.email} || chr(31) || coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, ''))`;
}

export const orders = pgTable(
  "orders",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    userId: text("user_id")
      .notNull()
      .references(() => customers.id),
    status: text("status").$type<OrderStatus>().notNull().default("pending"),
    shippingName: text("shipping_name").notNull(),
    shippingAddress: text("shipping_address").notNull(),
    shippingCity: text("shipping_city").notNull(),
    shippingState: text("shipping_state").notNull(),
    shippingPostalCode: text("shipping_postal_code").notNull(),
    shippingPhone: text("shipping_phone").notNull(),
    shippingEmail: text("shipping_email").notNull(),
    shippingMethod: text("shipping_method").notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull(),
    taxCents: integer("tax_cents").notNull().default(0),
    totalCents: integer("total_cents").notNull(),
    /** One per checkout attempt and customer: a replayed or double-clicked form finds its order. */
    checkoutKey: text("checkout_key"),
    paymentProvider: text("payment_provider"),
    paymentSessionId: text("payment_session_id"),
    /** The provider's page for that session, so a retried checkout goes back to it. */
    paymentSessionUrl: text("payment_session_url"),
    /** When an unpaid order's reservation lapses and the expiry sweep returns its stock. */
    paymentExpiresAt: timestamp("payment_expires_at", { withTimezone: true }),
    /**
     * When the payment arrived. Set on an `expired` or `cancelled` order, it means the money came
     * after the stock was released and could not be reserved again: the payment needs a refund.
     */
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** The provider's id of the payment itself (Stripe: the PaymentIntent), used for refunds. */
    paymentReference: text("payment_reference"),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** The provider's id of the refund, once the money went back. */
    refundReference: text("refund_reference"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** The date of birth an order with adult titles was sold on (the customer's, at the time). */
    buyerDateOfBirth: date("buyer_date_of_birth"),
    /**
     * Shipped, or picked up at the store (decision 023, point 8): the shipping method says which,
     * so the statement placing orders needs no new parameter.
     */
    fulfilment: text("fulfilment")
      .$type<"ship" | "pickup">()
      .notNull()
      .generatedAlwaysAs(sql`case when shipping_method = 'pickup' then 'pickup' else 'ship' end`),
    /** The code the customer shows at the counter, set when staff mark the order ready. */
    pickupCode: text("pickup_code"),
    readyForPickupAt: timestamp("ready_for_pickup_at", { withTimezone: true }),
    /** Who handed a pickup order over at the counter, and when. */
    collectedAt: timestamp("collected_at", { withTimezone: true }),
    collectedById: text("collected_by_id").references(() => users.id, { onDelete: "set null" }),
    collectedByName: text("collected_by_name"),
    /** The birth date on the ID the clerk checked when the order had adult titles. */
    collectedIdCheckBirthDate: date("collected_id_check_birth_date", { mode: "string" }),
    ...timestamps,
  },
  (t) => [
    check(
      "orders_status_check",
      sql`${t.status} in ('pending', 'paid', 'shipped', 'completed', 'cancelled', 'expired', 'refunded')`,
    ),
    check(
      "orders_money_check",
      sql`${t.subtotalCents} >= 0 and ${t.shippingCents} >= 0 and ${t.taxCents} >= 0 and ${t.totalCents} = ${t.subtotalCents} + ${t.shippingCents} + ${t.taxCents}`,
    ),
    index("orders_user_created").on(t.userId, t.createdAt.desc()),
    // One open checkout per account: a new one releases the earlier unpaid order first.
    uniqueIndex("orders_one_pending_per_user")
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index("orders_status_created").on(t.status, t.createdAt),
    uniqueIndex("orders_user_checkout_key").on(t.userId, t.checkoutKey),
    uniqueIndex("orders_payment_session_id")
      .on(t.paymentSessionId)
      .where(sql`${t.paymentSessionId} is not null`),
    index("orders_pending_expiry")
      .on(t.paymentExpiresAt)
      .where(sql`${t.status} = 'pending'`),
    // The back office lists every order newest first, and searches by name or e-mail.
    index("orders_created").on(t.createdAt, t.id),
    // The dashboard sums sales by the day they were paid.
    index("orders_paid_at")
      .on(t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    index("orders_admin_search_trgm").using("gin", sql`${orderSearchText(t)} gin_trgm_ops`),
    uniqueIndex("orders_pickup_code")
      .on(t.pickupCode)
      .where(sql`${t.pickupCode} is not null`),
    // The Z report counts the pickups collected while a till was open.
    index("orders_collected_at")
      .on(t.collectedAt)
      .where(sql`${t.collectedAt} is not null`),
    check(
      "orders_pickup_check",
      sql`(${t.pickupCode} is null or ${t.shippingMethod} = 'pickup') and (${t.collectedAt} is null or ${t.readyForPickupAt} is not null)`,
    ),
  ],
);

/** Who changed an order's status and when: one row per change, written by a trigger. */
export const orderEvents = pgTable(
  "order_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The order's statuses, or the return's for a row of one of its returns (`returnNumber`). */
    fromStatus: text("from_status").$type<OrderStatus | ReturnStatus>(),
    toStatus: text("to_status").$type<OrderStatus | ReturnStatus>().notNull(),
    /** The staff member who made the change; null for the customer, the provider or the shop. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name"),
    note: text("note"),
    /**
     * Set when the change is one of the order's returns (its statuses then are the return's):
     * the order's history tells its whole story, returns included.
     */
    returnNumber: integer("return_number"),
    createdAt: timestamps.createdAt,
  },
  (t) => [index("order_events_order").on(t.orderId, t.id)],
);

export const orderItems = pgTable(
  "order_items",
  {
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productType: text("product_type").$type<ProductType>().notNull(),
    productSerialNo: integer("product_serial_no").notNull(),
    title: text("title").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.productType, t.productSerialNo] }),
    check("order_items_product_type_check", sql`${t.productType} in ('regular', 'adult')`),
    check("order_items_quantity_check", sql`${t.quantity} > 0`),
    check("order_items_price_check", sql`${t.unitPriceCents} >= 0`),
  ],
);

/**
 * Payment provider events already handled (webhook idempotency): a replayed event finds its
 * row and changes nothing.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    orderId: bigint("order_id", { mode: "number" }).references(() => orders.id, {
      onDelete: "set null",
    }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.eventId] }),
    index("payment_events_order_id").on(t.orderId),
  ],
);

/**
 * Money taken for an order that is not the order's payment: a paid session other than the one
 * recorded on the order, or a second payment of an order already paid. Each is kept (once per
 * session) and shown to staff as "refund due" until they refund it.
 */
export const extraPayments = pgTable(
  "extra_payments",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    sessionId: text("session_id").notNull(),
    paymentReference: text("payment_reference"),
    amountCents: integer("amount_cents"),
    reason: text("reason").$type<"other-session" | "already-paid">().notNull(),
    receivedAt: timestamps.createdAt,
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (t) => [
    unique("extra_payments_session").on(t.provider, t.sessionId),
    index("extra_payments_order").on(t.orderId),
  ],
);

export const contacts = pgTable(
  "contacts",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** When a staff member first opened it in the inbox. */
    readAt: timestamp("read_at", { withTimezone: true }),
    /** When a staff member marked it handled (null: still open). */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: text("handled_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("contacts_created_at").on(t.createdAt),
    index("contacts_open")
      .on(t.createdAt)
      .where(sql`${t.handledAt} is null`),
  ],
);

export const serviceRequests = pgTable(
  "service_requests",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    serviceType: text("service_type").$type<ServiceType>().notNull(),
    issue: text("issue").notNull(),
    preferredDate: date("preferred_date").notNull(),
    preferredTime: text("preferred_time").notNull(),
    status: text("status").notNull().default("new"),
    /** The booked slot's start (preferred_date and preferred_time are its shop-local wall time). */
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    /** The calendar event's UID, stable across the confirmation and the cancellation. */
    uid: text("uid")
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    /**
     * When the booking was confirmed: at once for a signed-in customer's own confirmed address,
     * else when the link mailed to the address was followed. Until then it reaches no staff.
     */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** Until when an unconfirmed booking holds its place; past it, the place is free again. */
    confirmBy: timestamp("confirm_by", { withTimezone: true }),
    /** SHA-256 of the confirmation link's token (the token itself is only in the e-mail). */
    confirmTokenHash: text("confirm_token_hash"),
    /** Set once when the customer cancels; a cancelled booking no longer holds its place. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Who cancelled: the customer through their link, or the shop. */
    cancelledBy: text("cancelled_by").$type<"customer" | "shop">(),
    /** When a staff member first opened it in the inbox. */
    readAt: timestamp("read_at", { withTimezone: true }),
    /** When a staff member marked it handled (null: still open). */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: text("handled_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("service_requests_created_at").on(t.createdAt),
    uniqueIndex("service_requests_uid").on(t.uid),
    // Counting a slot's places reads only the bookings still standing.
    index("service_requests_active_starts_at")
      .on(t.startsAt)
      .where(sql`${t.cancelledAt} is null`),
    index("service_requests_open")
      .on(t.createdAt)
      .where(sql`${t.handledAt} is null`),
    uniqueIndex("service_requests_confirm_token")
      .on(t.confirmTokenHash)
      .where(sql`${t.confirmTokenHash} is not null`),
    // A booking is either confirmed or holds its place only until a deadline.
    check(
      "service_requests_confirmed_or_held",
      sql`${t.confirmedAt} is not null or ${t.confirmBy} is not null`,
    ),
  ],
);

/** Replies staff sent from the inbox, kept with the message or repair request they answer. */
export const inboxReplies = pgTable(
  "inbox_replies",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    kind: text("kind").$type<"contact" | "repair">().notNull(),
    itemId: integer("item_id").notNull(),
    body: text("body").notNull(),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    sentByName: text("sent_by_name").notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    check("inbox_replies_kind_check", sql`${t.kind} in ('contact', 'repair')`),
    index("inbox_replies_item").on(t.kind, t.itemId, t.id),
  ],
);

/**
 * What the repair board searches a ticket by besides its number: the customer's name, the phone
 * number's digits (however it was typed) and the device's serial or IMEI, lower-cased.
 */
export function repairSearchText(t: {
  customerName: AnyColumn;
  customerPhone: AnyColumn;
  deviceSerial: AnyColumn;
}) {
  return sql`lower(${t.customerName} || chr(31) || regexp_replace(${t.customerPhone}, '[^0-9]', '', 'g') || chr(31) || coalesce(${t.deviceSerial}, ''))`;
}

/**
 * A device in the shop's hands for repair, from intake at the counter (a walk-in, or a booking
 * from the inbox) to collection. Its number, shown as "R-1042", is what the customer quotes.
 */
export const repairTickets = pgTable(
  "repair_tickets",
  {
    number: integer("number").primaryKey().generatedByDefaultAsIdentity({ startWith: 1001 }),
    /** The booking it was opened from; a booking opens one ticket at most. */
    serviceRequestId: integer("service_request_id").references(() => serviceRequests.id, {
      onDelete: "set null",
    }),
    /** The account with this confirmed address, when there is one: it lists the ticket. */
    customerId: text("customer_id").references(() => users.id, { onDelete: "set null" }),
    customerName: text("customer_name").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerPhone: text("customer_phone").notNull(),
    serviceType: text("service_type").$type<ServiceType>().notNull(),
    deviceKind: text("device_kind").notNull(),
    deviceBrand: text("device_brand").notNull(),
    deviceModel: text("device_model").notNull(),
    deviceSerial: text("device_serial"),
    problem: text("problem").notNull(),
    conditionAtIntake: text("condition_at_intake").notNull(),
    accessories: text("accessories").notNull().default(""),
    promisedDate: date("promised_date").notNull(),
    status: text("status").$type<TicketStatus>().notNull().default("checked_in"),
    /** How the rest was taken at collection ("no charge": nothing more was taken then). */
    paymentMethod: text("payment_method").$type<PaymentMethod>(),
    /** At collection: all the ticket's payments came to, deposit and online payments included. */
    paidCents: integer("paid_cents"),
    /** Why the amount taken at collection differs from the approved estimate's total. */
    paidDifferenceReason: text("paid_difference_reason"),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    openedBy: text("opened_by").references(() => users.id, { onDelete: "set null" }),
    /** The key of the intake form that opened it: the form sent again opens no other ticket. */
    intakeKey: text("intake_key"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("repair_tickets_intake_key").on(t.intakeKey),
    check(
      "repair_tickets_status_check",
      sql`${t.status} in ('checked_in', 'diagnosing', 'estimate_sent', 'approved', 'declined', 'repairing', 'ready', 'collected', 'returned')`,
    ),
    check(
      "repair_tickets_payment_check",
      sql`(${t.status} = 'collected') = (${t.paymentMethod} is not null and ${t.paidCents} is not null)
          and (${t.paymentMethod} is null or ${t.paymentMethod} in ('cash', 'card', 'no_charge'))
          and (${t.paidCents} is null or ${t.paidCents} >= 0)`,
    ),
    uniqueIndex("repair_tickets_service_request")
      .on(t.serviceRequestId)
      .where(sql`${t.serviceRequestId} is not null`),
    index("repair_tickets_status").on(t.status, t.promisedDate),
    index("repair_tickets_customer").on(t.customerId, t.createdAt.desc()),
    index("repair_tickets_email").on(sql`lower(${t.customerEmail})`),
    index("repair_tickets_search_trgm").using("gin", sql`${repairSearchText(t)} gin_trgm_ops`),
  ],
);

/**
 * Who moved a ticket and when: one row per status change, and one per correction of the details
 * typed at intake (with each field's value before and after), written by triggers.
 */
export const repairTicketEvents = pgTable(
  "repair_ticket_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    ticketNumber: integer("ticket_number")
      .notNull()
      .references(() => repairTickets.number, { onDelete: "cascade" }),
    fromStatus: text("from_status").$type<TicketStatus>(),
    toStatus: text("to_status").$type<TicketStatus>().notNull(),
    /** The staff member; null for the customer's own decision on an estimate. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name"),
    note: text("note"),
    /** A correction's changes, field by field; null for a status change. */
    changes: jsonb("changes").$type<TicketCorrection[]>(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index("repair_ticket_events_ticket").on(t.ticketNumber, t.id)],
);

/**
 * A priced estimate for a ticket. Sending a new one supersedes the one before, so the customer
 * can only decide on the latest, once.
 */
export const repairEstimates = pgTable(
  "repair_estimates",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    ticketNumber: integer("ticket_number")
      .notNull()
      .references(() => repairTickets.number, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    status: text("status")
      .$type<"pending" | "approved" | "declined" | "superseded">()
      .notNull()
      .default("pending"),
    subtotalCents: integer("subtotal_cents").notNull(),
    taxRate: text("tax_rate").notNull(),
    taxCents: integer("tax_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    note: text("note").notNull().default(""),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    unique("repair_estimates_version").on(t.ticketNumber, t.version),
    uniqueIndex("repair_estimates_one_pending")
      .on(t.ticketNumber)
      .where(sql`${t.status} = 'pending'`),
    check(
      "repair_estimates_status_check",
      sql`${t.status} in ('pending', 'approved', 'declined', 'superseded')`,
    ),
    check(
      "repair_estimates_money_check",
      sql`${t.subtotalCents} >= 0 and ${t.taxCents} >= 0 and ${t.totalCents} = ${t.subtotalCents} + ${t.taxCents}`,
    ),
    check(
      "repair_estimates_decided_check",
      sql`(${t.status} in ('approved', 'declined')) = (${t.decidedAt} is not null)`,
    ),
  ],
);

export const repairEstimateLines = pgTable(
  "repair_estimate_lines",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    estimateId: integer("estimate_id")
      .notNull()
      .references(() => repairEstimates.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    kind: text("kind").$type<"labour" | "part">().notNull(),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitCents: integer("unit_cents").notNull(),
  },
  (t) => [
    unique("repair_estimate_lines_position").on(t.estimateId, t.position),
    check("repair_estimate_lines_kind_check", sql`${t.kind} in ('labour', 'part')`),
    check(
      "repair_estimate_lines_amount_check",
      sql`${t.quantity} between 1 and 999 and ${t.unitCents} between 0 and 10000000`,
    ),
  ],
);

/**
 * A customer's return of some lines of a shipped order, from the request to the refund (or the
 * rejection). Its number, shown as "RMA-1042", goes on the parcel. Its status changes are written
 * into the order's history by a trigger (migration 0021).
 */
export const returns = pgTable(
  "returns",
  {
    number: integer("number").primaryKey().generatedByDefaultAsIdentity({ startWith: 1001 }),
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status").$type<ReturnStatus>().notNull().default("requested"),
    reason: text("reason").$type<ReturnReason>().notNull(),
    note: text("note").notNull().default(""),
    method: text("method").$type<ReturnMethod>().notNull(),
    /** Why staff refused it; told to the customer. */
    rejectionReason: text("rejection_reason"),
    /**
     * What the refund gives back, part by part: worked out and kept when the refund is claimed
     * (so a refund of another return of the order at the same moment counts it), final once the
     * status is `refunded`, cleared if the provider refuses.
     */
    refundGoodsCents: integer("refund_goods_cents"),
    refundShippingCents: integer("refund_shipping_cents"),
    refundTaxCents: integer("refund_tax_cents"),
    /**
     * Promised toward the postage of a return sent by mail when it was asked for: the shop's
     * contribution (RETURN_POSTAGE_CENTS) within the order's shipping charge less what its other
     * returns were promised (`postagePromise`). Paid with the refund.
     */
    postagePromisedCents: integer("postage_promised_cents").notNull().default(0),
    /** Of the refund, paid toward postage: the promise, within the shipping not yet given back. */
    refundPostageCents: integer("refund_postage_cents"),
    refundCents: integer("refund_cents"),
    refundReference: text("refund_reference"),
    /**
     * Refusals so far: each retry after a refusal asks the provider under a new idempotency key
     * (the provider keeps a refused answer under its key), a retry after a crash under the same.
     */
    refundAttempts: integer("refund_attempts").notNull().default(0),
    /** The provider's last refusal, shown to staff until a retry goes through. */
    refundError: text("refund_error"),
    /** A staff member is asking the provider right now (a claim, so two clicks refund once). */
    refundStartedAt: timestamp("refund_started_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check(
      "returns_status_check",
      sql`${t.status} in ('requested', 'received', 'refunded', 'rejected')`,
    ),
    check("returns_method_check", sql`${t.method} in ('drop_off', 'mail')`),
    check(
      "returns_postage_promised_check",
      sql`${t.postagePromisedCents} >= 0 and (${t.method} = 'mail' or ${t.postagePromisedCents} = 0)`,
    ),
    check(
      "returns_refund_check",
      sql`(${t.status} = 'refunded') = (${t.refundCents} is not null and ${t.refundedAt} is not null)
          and (${t.refundCents} is null or (${t.refundCents} > 0 and ${t.refundCents} = ${t.refundGoodsCents} + ${t.refundShippingCents} + ${t.refundTaxCents} + ${t.refundPostageCents}))`,
    ),
    check(
      "returns_rejected_check",
      sql`(${t.status} = 'rejected') = (${t.rejectionReason} is not null and ${t.rejectedAt} is not null)`,
    ),
    index("returns_order").on(t.orderId),
    index("returns_open")
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('requested', 'received')`),
  ],
);

/** The lines a return sends back, priced as they were sold. */
export const returnItems = pgTable(
  "return_items",
  {
    returnNumber: integer("return_number")
      .notNull()
      .references(() => returns.number, { onDelete: "cascade" }),
    productType: text("product_type").$type<ProductType>().notNull(),
    productSerialNo: integer("product_serial_no").notNull(),
    title: text("title").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** Set when the parcel arrives: only `restock` goes back on sale. */
    condition: text("condition").$type<LineCondition>(),
  },
  (t) => [
    primaryKey({ columns: [t.returnNumber, t.productType, t.productSerialNo] }),
    check("return_items_quantity_check", sql`${t.quantity} > 0`),
    check(
      "return_items_condition_check",
      sql`${t.condition} is null or ${t.condition} in ('restock', 'damaged')`,
    ),
  ],
);

/**
 * Photos of a device taken at intake, at most five a ticket. The image itself is a WebP
 * re-encoding in the private area of the upload storage (`storage_key`), served only to staff.
 */
export const repairTicketPhotos = pgTable(
  "repair_ticket_photos",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    ticketNumber: integer("ticket_number")
      .notNull()
      .references(() => repairTickets.number, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull().unique(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    addedBy: text("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("repair_ticket_photos_ticket").on(t.ticketNumber, t.id),
    check("repair_ticket_photos_size_check", sql`${t.width} > 0 and ${t.height} > 0`),
  ],
);

/**
 * A wish to be told when a regular title is back in stock (`restock`) or when a Coming Soon
 * entry reaches the catalogue (`release`). The database marks it `due` in the same transaction
 * as the stock change (migration 0023); the alert sender mails each due alert once. Adult titles
 * have no alerts (decision 012).
 */
export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    kind: text("kind").$type<AlertKind>().notNull(),
    /** Lower-cased; a visitor's is stored active only once they follow the e-mailed link. */
    email: text("email").notNull(),
    /** The signed-in customer who asked, if one did. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The title (a release alert gets it when staff link the entry to the catalogue). */
    regSerialNo: integer("reg_serial_no").references(() => regularTitles.regSerialNo, {
      onDelete: "cascade",
    }),
    comingSoonId: integer("coming_soon_id").references(() => comingSoon.id, {
      onDelete: "set null",
    }),
    /** What the e-mail names: the title as it was when asked (a Coming Soon entry may go). */
    title: text("title").notNull(),
    status: text("status").$type<AlertStatus>().notNull(),
    createdAt: timestamps.createdAt,
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    dueAt: timestamp("due_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  },
  (t) => [
    check("stock_alerts_kind_check", sql`${t.kind} in ('restock', 'release')`),
    check(
      "stock_alerts_status_check",
      sql`${t.status} in ('unconfirmed', 'active', 'due', 'sent', 'unsubscribed')`,
    ),
    check(
      "stock_alerts_target_check",
      sql`(${t.kind} = 'restock' and ${t.regSerialNo} is not null) or (${t.kind} = 'release' and (${t.comingSoonId} is not null or ${t.regSerialNo} is not null))`,
    ),
    // One waiting alert per address and title, and per address and Coming Soon entry.
    uniqueIndex("stock_alerts_one_restock")
      .on(t.email, t.regSerialNo)
      .where(sql`${t.kind} = 'restock' and ${t.status} in ('unconfirmed', 'active')`),
    uniqueIndex("stock_alerts_one_release")
      .on(t.email, t.comingSoonId)
      .where(sql`${t.kind} = 'release' and ${t.status} in ('unconfirmed', 'active')`),
    // The trigger's lookup when a title comes back, and the most-wanted list.
    index("stock_alerts_waiting_title")
      .on(t.regSerialNo)
      .where(sql`${t.status} = 'active'`),
    index("stock_alerts_waiting_release")
      .on(t.comingSoonId)
      .where(sql`${t.status} = 'active'`),
    // The sender's queue.
    index("stock_alerts_due")
      .on(t.dueAt)
      .where(sql`${t.status} = 'due'`),
    index("stock_alerts_user").on(t.userId),
    index("stock_alerts_email").on(t.email),
  ],
);

/**
 * The stock ledger (decision 023): one row per change of a product's stock, written by triggers
 * on the stock columns (drizzle/0030_stock_ledger.sql), never by the shop's code. The reason and
 * reference are named by the transaction that changes the stock, the actor as for an order's
 * history (`withActor`).
 */
export const stockMoves = pgTable(
  "stock_moves",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    productType: text("product_type").$type<StockProduct>().notNull(),
    /** The title's serial number, or the store item's id. */
    productId: integer("product_id").notNull(),
    change: integer("change").notNull(),
    stockAfter: integer("stock_after").notNull(),
    reason: text("reason").$type<StockReason>().notNull(),
    /** What caused it, as staff read it: "order 1234", "return RT-12", "sale S-100001". */
    reference: text("reference"),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name"),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("stock_moves_product").on(t.productType, t.productId, t.id),
    check("stock_moves_change_check", sql`${t.change} <> 0`),
    check(
      "stock_moves_reason_check",
      sql`${t.reason} in ('added', 'adjustment', 'import', 'web_sale', 'released', 'cancelled', 'returned', 'counter_sale', 'counter_unpaid', 'counter_return')`,
    ),
  ],
);

/**
 * Goods sold only at the counter (decision 023): memorabilia and the like, never shown on the web.
 * An item that was sold is archived, not deleted, so its sales keep what they sold.
 */
export const storeItems = pgTable(
  "store_items",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 1001 }),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    priceCents: integer("price_cents").notNull(),
    stock: integer("stock").notNull().default(0),
    /** Sales tax at the store's rate applies (most goods); false for what the law exempts. */
    taxable: boolean("taxable").notNull().default(true),
    photoUrl: text("photo_url"),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("store_items_sku").on(sql`lower(${t.sku})`),
    index("store_items_name").on(sql`lower(${t.name})`, t.id),
    check("store_items_price_check", sql`${t.priceCents} >= 0`),
    check("store_items_stock_check", sql`${t.stock} >= 0`),
  ],
);

/**
 * Every barcode in the shop, on whichever product carries it: one look-up from a scan, and one
 * product per code across both catalogues and the store items.
 */
export const productBarcodes = pgTable(
  "product_barcodes",
  {
    barcode: text("barcode").primaryKey(),
    productType: text("product_type").$type<StockProduct>().notNull(),
    productId: integer("product_id").notNull(),
    /** The code as a GTIN-14 (`gtinOf`): what a scan is matched on, one product per code. */
    gtin: text("gtin")
      .notNull()
      .generatedAlwaysAs(sql`lpad(barcode, 14, '0')`),
  },
  (t) => [
    uniqueIndex("product_barcodes_product").on(t.productType, t.productId),
    uniqueIndex("product_barcodes_gtin").on(t.gtin),
    check("product_barcodes_digits_check", sql`${t.barcode} ~ '^[0-9]{8,14}$'`),
    check("product_barcodes_type_check", sql`${t.productType} in ('regular', 'adult', 'item')`),
  ],
);

/**
 * The till (decision 023, point 7): opened by a clerk with a float, closed with the cash counted.
 * One is open at a time; every sale and cash movement belongs to one. Its Z report is computed
 * from its rows when it closes and kept here, so a later correction cannot rewrite a closed day.
 */
export const tillSessions = pgTable(
  "till_sessions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    openedById: text("opened_by_id").references(() => users.id, { onDelete: "set null" }),
    openedByName: text("opened_by_name").notNull(),
    floatCents: integer("float_cents").notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedById: text("closed_by_id").references(() => users.id, { onDelete: "set null" }),
    closedByName: text("closed_by_name"),
    countedCents: integer("counted_cents"),
    /** The Z report as it stood when the till closed (`ZReport` in the counter's domain). */
    report: jsonb("report"),
  },
  (t) => [
    uniqueIndex("till_sessions_one_open")
      .on(sql`(${t.closedAt} is null)`)
      .where(sql`${t.closedAt} is null`),
    check("till_sessions_float_check", sql`${t.floatCents} >= 0`),
    check("till_sessions_counted_check", sql`${t.countedCents} >= 0`),
  ],
);

/**
 * A sale at the counter, numbered S-100001 onwards: open while its lines are scanned (one open
 * sale per till), then paid or voided. The totals are written when it is paid; the ID check of
 * a sale with adult titles is the birth date the clerk typed from the customer's ID.
 */
export const counterSales = pgTable(
  "counter_sales",
  {
    id: bigint("id", { mode: "number" })
      .primaryKey()
      .generatedByDefaultAsIdentity({ startWith: 100001 }),
    tillSessionId: integer("till_session_id")
      .notNull()
      .references(() => tillSessions.id),
    status: text("status").$type<SaleStatus>().notNull().default("open"),
    clerkId: text("clerk_id").references(() => users.id, { onDelete: "set null" }),
    clerkName: text("clerk_name").notNull(),
    subtotalCents: integer("subtotal_cents").notNull().default(0),
    discountCents: integer("discount_cents").notNull().default(0),
    taxCents: integer("tax_cents").notNull().default(0),
    totalCents: integer("total_cents").notNull().default(0),
    /** The tax rate the sale was charged at, in millionths (82_500 is 8.25 %). */
    taxRate: integer("tax_rate").notNull().default(0),
    idCheckBirthDate: date("id_check_birth_date", { mode: "string" }),
    /**
     * The card part of a payment handed to the card reader (decision 023, point 6): while the
     * sale is `awaiting_card` its stock is taken and these say what the tenders will be; the
     * attempt numbers each hand-over, so an answer about an earlier one changes nothing.
     */
    cardCents: integer("card_cents"),
    cashTenderedCents: integer("cash_tendered_cents"),
    cardAttempt: integer("card_attempt").notNull().default(0),
    /** The reader's payment (Stripe: the PaymentIntent) of the attempt under way. */
    cardReference: text("card_reference"),
    /** Why the last card attempt did not pay (declined, cancelled), for the clerk. */
    cardMessage: text("card_message"),
    createdAt: timestamps.createdAt,
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [
    // The sale the till is on: being scanned, or waiting for the card reader.
    uniqueIndex("counter_sales_open")
      .on(t.tillSessionId)
      .where(sql`${t.status} in ('open', 'awaiting_card')`),
    index("counter_sales_till").on(t.tillSessionId, t.status),
    index("counter_sales_paid_at").on(t.paidAt),
    check(
      "counter_sales_status_check",
      sql`${t.status} in ('open', 'awaiting_card', 'paid', 'voided')`,
    ),
  ],
);

/** A line of a counter sale: a title of either catalogue or a store item, at the price it sold. */
export const counterSaleLines = pgTable(
  "counter_sale_lines",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    saleId: bigint("sale_id", { mode: "number" })
      .notNull()
      .references(() => counterSales.id, { onDelete: "cascade" }),
    productType: text("product_type").$type<StockProduct>().notNull(),
    productId: integer("product_id").notNull(),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    discountCents: integer("discount_cents").notNull().default(0),
    discountReason: text("discount_reason"),
    taxable: boolean("taxable").notNull(),
  },
  (t) => [
    uniqueIndex("counter_sale_lines_product").on(t.saleId, t.productType, t.productId),
    check("counter_sale_lines_type_check", sql`${t.productType} in ('regular', 'adult', 'item')`),
    check("counter_sale_lines_quantity_check", sql`${t.quantity} > 0`),
    check(
      "counter_sale_lines_discount_check",
      sql`${t.discountCents} >= 0 and ${t.discountCents} <= ${t.unitPriceCents} * ${t.quantity}`,
    ),
  ],
);

/**
 * Money taken at the counter: each tender of a sale (cash with what was handed over and the
 * change given, or a card), in the till session that holds the cash.
 */
export const counterPayments = pgTable(
  "counter_payments",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    saleId: bigint("sale_id", { mode: "number" })
      .notNull()
      .references(() => counterSales.id),
    tillSessionId: integer("till_session_id")
      .notNull()
      .references(() => tillSessions.id),
    method: text("method").$type<TenderMethod>().notNull(),
    /** What the tender paid of the sale (for cash: what was handed over less the change). */
    amountCents: integer("amount_cents").notNull(),
    tenderedCents: integer("tendered_cents"),
    changeCents: integer("change_cents"),
    /** The card provider's payment, for a card. */
    providerReference: text("provider_reference"),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("counter_payments_till").on(t.tillSessionId, t.method),
    index("counter_payments_sale").on(t.saleId),
    check("counter_payments_method_check", sql`${t.method} in ('cash', 'card', 'credit')`),
    check("counter_payments_amount_check", sql`${t.amountCents} > 0`),
  ],
);

/**
 * A return at the counter, numbered CR-100001 onwards: lines of one paid sale brought back with
 * its receipt, their stock put back and their money given back (`counter_refunds`) in the same
 * transaction. The key of the form that made it is unique, so a double press or a replay records
 * it once.
 */
export const counterReturns = pgTable(
  "counter_returns",
  {
    id: bigint("id", { mode: "number" })
      .primaryKey()
      .generatedByDefaultAsIdentity({ startWith: 100001 }),
    saleId: bigint("sale_id", { mode: "number" })
      .notNull()
      .references(() => counterSales.id),
    /** The till open when it was made (cash refunds come out of it). */
    tillSessionId: integer("till_session_id").references(() => tillSessions.id),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    reason: text("reason").notNull(),
    clerkId: text("clerk_id").references(() => users.id, { onDelete: "set null" }),
    clerkName: text("clerk_name").notNull(),
    /** What its lines give back: the sum of its refunds. */
    amountCents: integer("amount_cents").notNull(),
    /** An exchange: the sale its credit paid toward. */
    exchangeSaleId: bigint("exchange_sale_id", { mode: "number" }).references(
      () => counterSales.id,
    ),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("counter_returns_sale").on(t.saleId),
    index("counter_returns_till").on(t.tillSessionId),
    check("counter_returns_amount_check", sql`${t.amountCents} >= 0`),
  ],
);

/** A line of a counter return: some of one sale line, and what it gives back (goods and tax). */
export const counterReturnLines = pgTable(
  "counter_return_lines",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    returnId: bigint("return_id", { mode: "number" })
      .notNull()
      .references(() => counterReturns.id, { onDelete: "cascade" }),
    saleLineId: bigint("sale_line_id", { mode: "number" })
      .notNull()
      .references(() => counterSaleLines.id),
    quantity: integer("quantity").notNull(),
    goodsCents: integer("goods_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [
    uniqueIndex("counter_return_lines_line").on(t.returnId, t.saleLineId),
    index("counter_return_lines_sale_line").on(t.saleLineId),
    check("counter_return_lines_quantity_check", sql`${t.quantity} > 0`),
    check(
      "counter_return_lines_amount_check",
      sql`${t.goodsCents} >= 0 and ${t.taxCents} >= 0 and ${t.amountCents} = ${t.goodsCents} + ${t.taxCents}`,
    ),
  ],
);

/**
 * Money a counter return gave back: cash out of the till (its session named), a refund to the
 * card that paid (the provider's refund named), or credit toward an exchange's new sale.
 */
export const counterRefunds = pgTable(
  "counter_refunds",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    returnId: bigint("return_id", { mode: "number" })
      .notNull()
      .references(() => counterReturns.id, { onDelete: "cascade" }),
    method: text("method").$type<RefundMethod>().notNull(),
    amountCents: integer("amount_cents").notNull(),
    providerReference: text("provider_reference"),
    tillSessionId: integer("till_session_id").references(() => tillSessions.id),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("counter_refunds_return").on(t.returnId),
    index("counter_refunds_till").on(t.tillSessionId, t.method),
    check("counter_refunds_method_check", sql`${t.method} in ('cash', 'card', 'credit')`),
    check("counter_refunds_amount_check", sql`${t.amountCents} > 0`),
    check(
      "counter_refunds_cash_check",
      sql`${t.method} <> 'cash' or ${t.tillSessionId} is not null`,
    ),
    check(
      "counter_refunds_card_check",
      sql`${t.method} <> 'card' or ${t.providerReference} is not null`,
    ),
  ],
);

/**
 * Money a repair ticket took or gave back (decision 023, point 8): a deposit at intake, the
 * balance at the counter or online through the pay link, a refund of a deposit when the device
 * goes back unrepaired. Cash is in the till session that holds it; an online payment names its
 * checkout session, once. A payment taken at the desk keeps the key of the form it came from,
 * so the same form sent twice records it once; a refund names the payment it gives back.
 */
export const repairPayments = pgTable(
  "repair_payments",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    ticketNumber: integer("ticket_number")
      .notNull()
      .references(() => repairTickets.number),
    kind: text("kind").$type<RepairPaymentKind>().notNull(),
    method: text("method").$type<RepairPaymentMethod>().notNull(),
    amountCents: integer("amount_cents").notNull(),
    tenderedCents: integer("tendered_cents"),
    changeCents: integer("change_cents"),
    /** The card's or the provider's payment reference, when there is one. */
    providerReference: text("provider_reference"),
    /** Online: the provider and the checkout session paid (one payment per session). */
    provider: text("provider"),
    checkoutSessionId: text("checkout_session_id").unique(),
    tillSessionId: integer("till_session_id").references(() => tillSessions.id),
    staffId: text("staff_id").references(() => users.id, { onDelete: "set null" }),
    staffName: text("staff_name"),
    /** The key of the desk's form that took it (deposit, intake, collection, refund). */
    formKey: text("form_key"),
    /** A refund: the payment it gives (part of) back. */
    refundedPaymentId: bigint("refunded_payment_id", { mode: "number" }).references(
      (): AnyPgColumn => repairPayments.id,
    ),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index("repair_payments_ticket").on(t.ticketNumber, t.id),
    // One form records once: one row, or one refund row per payment it gives back.
    uniqueIndex("repair_payments_form_key").on(t.formKey, sql`coalesce(refunded_payment_id, 0)`),
    check(
      "repair_payments_refund_check",
      sql`(${t.kind} = 'refund') = (${t.refundedPaymentId} is not null)
          and (${t.kind} <> 'refund' or ${t.method} = 'cash' or ${t.providerReference} is not null)`,
    ),
    index("repair_payments_till").on(t.tillSessionId, t.method),
    index("repair_payments_created").on(t.createdAt),
    check("repair_payments_kind_check", sql`${t.kind} in ('deposit', 'balance', 'refund')`),
    check("repair_payments_method_check", sql`${t.method} in ('cash', 'card', 'online')`),
    check("repair_payments_amount_check", sql`${t.amountCents} > 0`),
    check(
      "repair_payments_cash_check",
      sql`(${t.method} = 'cash') = (${t.tillSessionId} is not null and ${t.tenderedCents} is not null and ${t.changeCents} is not null)
          or (${t.method} = 'card' and ${t.tenderedCents} is null and ${t.changeCents} is null)`,
    ),
    check(
      "repair_payments_tender_check",
      sql`${t.tenderedCents} is null or (${t.changeCents} >= 0 and ${t.tenderedCents} - ${t.changeCents} = ${t.amountCents})`,
    ),
    check(
      "repair_payments_online_check",
      sql`(${t.method} = 'online') = (${t.checkoutSessionId} is not null and ${t.provider} is not null)
          and (${t.method} <> 'online' or ${t.tillSessionId} is null)`,
    ),
  ],
);

/**
 * A checkout session opened at the web checkout's provider for a ticket's balance, from the pay
 * link: the provider's confirmation finds the ticket and the amount through it.
 */
export const repairCheckouts = pgTable("repair_checkouts", {
  sessionId: text("session_id").primaryKey(),
  ticketNumber: integer("ticket_number")
    .notNull()
    .references(() => repairTickets.number),
  provider: text("provider").notNull(),
  amountCents: integer("amount_cents").notNull(),
  url: text("url").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamps.createdAt,
});
