import { count, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";
import { adultTitles, comingSoon, regularTitles, staffPicks } from "#app/db/schema.ts";
import type { Disc } from "#app/lib/catalog.ts";
import { drawnPosterUrl } from "#app/lib/posters.ts";
import { demoCollections, demoComingSoon, demoFilms, type DemoFilm } from "./demo-films.ts";

/** A small deterministic generator so every fresh shop gets the same demo catalogue. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRICE_STEPS: Record<Disc, number[]> = {
  DVD: [799, 999, 1199, 1499],
  "Blu-ray": [1499, 1799, 1999, 2499],
  "4K/Blu-ray": [2499, 2999, 3499],
  Collections: [3999, 4999, 5999, 7999],
};

type RegularRow = typeof regularTitles.$inferInsert;

function regularRow(film: DemoFilm, disc: Disc, serial: number, random: () => number): RegularRow {
  const prices = PRICE_STEPS[disc];
  const restock = random();
  return {
    regSerialNo: serial,
    productId: `RT-${String(serial).padStart(6, "0")}`,
    qtyToList: restock < 0.06 ? 0 : 1 + Math.floor(random() * 24),
    title: film.title,
    releaseYear: film.year,
    disc,
    type: disc === "Collections" ? "Box Set" : "Movie",
    currentPriceCents: prices[Math.floor(random() * prices.length)] ?? prices[0]!,
    description: film.description,
    genres: film.genres.join(", "),
    director: film.director,
    cast: film.cast.join(", "),
  };
}

/**
 * The regular catalogue in release order (so New Arrivals are recent films): every film on one
 * disc type, some on two, and the box sets as Collections.
 */
export function demoRegularRows(): RegularRow[] {
  const random = seededRandom(1984);
  const entries = [
    ...demoFilms.map((film) => ({ film, collection: false })),
    ...demoCollections.map((film) => ({ film, collection: true })),
  ].sort((a, b) => a.film.year - b.film.year || a.film.title.localeCompare(b.film.title));
  const rows: RegularRow[] = [];
  for (const { film, collection } of entries) {
    if (collection) {
      rows.push(regularRow(film, "Collections", rows.length + 1, random));
      continue;
    }
    const roll = random();
    const disc: Disc = roll < 0.45 ? "DVD" : roll < 0.8 ? "Blu-ray" : "4K/Blu-ray";
    rows.push(regularRow(film, disc, rows.length + 1, random));
    if (random() < 0.15) {
      const second: Disc = disc === "DVD" ? "Blu-ray" : "DVD";
      rows.push(regularRow(film, second, rows.length + 1, random));
    }
  }
  return rows;
}

const ADULT_WORDS_A = [
  "Velvet",
  "Midnight",
  "Neon",
  "Silk",
  "Crimson",
  "Moonlit",
  "Satin",
  "After Hours",
];
const ADULT_WORDS_B = [
  "Rendezvous",
  "Serenade",
  "Nights",
  "Encounter",
  "Affair",
  "Boulevard",
  "Lounge",
];
const ADULT_STUDIOS = [
  "Placeholder Pictures",
  "Sample Studio Productions",
  "Demo Reel Films",
  "Example House Media",
  "Standin Entertainment",
  "Mockup Motion Co.",
];

export function demoAdultRows(total = 64): (typeof adultTitles.$inferInsert)[] {
  const random = seededRandom(2025);
  return Array.from({ length: total }, (_, index) => {
    const serial = index + 1;
    const name = `${ADULT_WORDS_A[index % ADULT_WORDS_A.length]} ${
      ADULT_WORDS_B[Math.floor(index / ADULT_WORDS_A.length) % ADULT_WORDS_B.length]
    }`;
    const year = 1995 + Math.floor(random() * 30);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    return {
      adultSerialNo: serial,
      productId: 500000 + serial,
      condition: random() < 0.8 ? "New" : "Used - Like New",
      priceCents: [1999, 2499, 2999, 3499][Math.floor(random() * 4)]!,
      quantity: random() < 0.08 ? 0 : 1 + Math.floor(random() * 12),
      title: `${name} Vol. ${1 + Math.floor(index / (ADULT_WORDS_A.length * ADULT_WORDS_B.length))}`,
      production: ADULT_STUDIOS[index % ADULT_STUDIOS.length],
      releaseDate: `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
      disc: random() < 0.7 ? "DVD" : "Blu-ray",
      genre: "Adult",
      description:
        "Placeholder description for an adult catalogue title. The demo data does not describe its contents.",
    };
  });
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function demoComingSoonRows(today = new Date()): (typeof comingSoon.$inferInsert)[] {
  return demoComingSoon.map((entry, index) => {
    const release = new Date(today);
    release.setUTCDate(release.getUTCDate() + 10 + index * 12);
    const id = index + 1;
    return {
      id,
      title: entry.title,
      description: entry.description,
      releaseDate: isoDate(release),
      posterUrl: drawnPosterUrl("coming-soon", id),
    };
  });
}

const STAFF_PICK_TITLES = ["Casablanca", "Spirited Away", "The Godfather", "Parasite", "Alien"];

async function resetIdentity(db: Database, table: string, column: string) {
  await db.execute(
    sql.raw(
      `select setval(pg_get_serial_sequence('${table}', '${column}'), coalesce((select max(${column}) from ${table}), 0) + 1, false)`,
    ),
  );
}

/**
 * Fills an empty catalogue with the demo data. Does nothing if any regular title exists,
 * so it is safe to call at every start.
 */
export async function seedDemoIfEmpty(db: Database) {
  return db.transaction(async (tx) => {
    // Two processes starting at once must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(4242001)`);
    const [{ existing } = { existing: 0 }] = await tx
      .select({ existing: count() })
      .from(regularTitles);
    if (existing > 0) return undefined;

    const regular = demoRegularRows();
    for (let i = 0; i < regular.length; i += 500) {
      await tx.insert(regularTitles).values(regular.slice(i, i + 500));
    }
    const adult = demoAdultRows();
    await tx.insert(adultTitles).values(adult);
    const upcoming = demoComingSoonRows();
    await tx.insert(comingSoon).values(upcoming);

    const picks: number[] = [];
    for (const title of STAFF_PICK_TITLES) {
      const row = regular.find((r) => r.title === title && !picks.includes(r.regSerialNo!));
      if (row?.regSerialNo) picks.push(row.regSerialNo);
    }
    for (const row of regular) {
      if (picks.length >= 5) break;
      if (!picks.includes(row.regSerialNo!)) picks.push(row.regSerialNo!);
    }
    const now = Date.now();
    await tx.insert(staffPicks).values(
      picks.map((regSerialNo, index) => ({
        regSerialNo,
        createdAt: new Date(now - index * 60_000),
      })),
    );

    await resetIdentity(tx as unknown as Database, "regular_titles", "reg_serial_no");
    await resetIdentity(tx as unknown as Database, "adult_titles", "adult_serial_no");
    await resetIdentity(tx as unknown as Database, "coming_soon", "id");
    return {
      regular: regular.length,
      adult: adult.length,
      comingSoon: upcoming.length,
      staffPicks: picks.length,
    };
  });
}
