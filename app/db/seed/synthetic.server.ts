import { sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server.ts";

const WORDS_A = [
  "Silent",
  "Crimson",
  "Last",
  "Golden",
  "Broken",
  "Hidden",
  "Eternal",
  "Savage",
  "Midnight",
  "Lost",
  "Burning",
  "Frozen",
  "Secret",
  "Distant",
  "Wild",
  "Iron",
  "Electric",
  "Scarlet",
  "Hollow",
  "Final",
  "Northern",
  "Velvet",
  "Shattered",
  "Restless",
  "Quiet",
  "Bright",
  "Dark",
  "Falling",
  "Rising",
  "Stolen",
];
const WORDS_B = [
  "River",
  "Empire",
  "Horizon",
  "Shadow",
  "Kingdom",
  "Harbor",
  "Storm",
  "Garden",
  "Highway",
  "Frontier",
  "Mirror",
  "Station",
  "Island",
  "Canyon",
  "Legacy",
  "Signal",
  "Orchard",
  "Voyage",
  "Circuit",
  "Summit",
  "Labyrinth",
  "Meridian",
  "Outpost",
  "Carnival",
  "Requiem",
  "Paradox",
  "Lantern",
  "Citadel",
  "Tide",
  "Echo",
];
const DIRECTORS = [
  "A. Moreno",
  "B. Lindqvist",
  "C. Okafor",
  "D. Tanaka",
  "E. Novak",
  "F. Haddad",
  "G. Brennan",
  "H. Kowalski",
];
const GENRES = [
  "Drama",
  "Comedy",
  "Thriller",
  "Action",
  "Science Fiction",
  "Romance",
  "Horror",
  "Documentary",
];

function textArray(values: string[]) {
  return sql.raw(`array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(",")}]`);
}

/**
 * Adds a large synthetic catalogue for speed work, entirely inside PostgreSQL
 * (generate_series), so 100,000 titles take seconds rather than minutes.
 */
export async function seedSynthetic(db: Database, options: { regular: number; adult: number }) {
  if (options.regular > 0) {
    await db.execute(sql`
      insert into regular_titles
        (product_id, qty_to_list, title, release_year, disc, type, current_price_cents,
         description, genres, director, "cast")
      select
        'SYN-' || g,
        (g * 7) % 25,
        (${textArray(WORDS_A)})[1 + g % 30] || ' ' || (${textArray(WORDS_B)})[1 + (g / 30) % 30] || ' ' || (g / 900 + 1),
        1930 + g % 95,
        (array['DVD','Blu-ray','4K/Blu-ray','Collections'])[1 + g % 4],
        'Movie',
        799 + (g % 30) * 100,
        'A synthetic title generated for load testing.',
        (${textArray(GENRES)})[1 + g % 8],
        (${textArray(DIRECTORS)})[1 + g % 8],
        'Synthetic Cast'
      from generate_series(1, ${options.regular}) as g`);
  }
  if (options.adult > 0) {
    await db.execute(sql`
      insert into adult_titles
        (product_id, condition, price_cents, quantity, title, production, release_date, disc, genre, description)
      select
        900000 + g,
        'New',
        1999 + (g % 4) * 500,
        g % 10,
        'Synthetic Feature ' || g,
        'Synthetic Studio ' || (g % 50),
        date '1995-01-01' + (g % 10000),
        (array['DVD','Blu-ray'])[1 + g % 2],
        'Adult',
        'Placeholder description for a synthetic adult title.'
      from generate_series(1, ${options.adult}) as g`);
  }
  // Fresh statistics for the planner, and a visibility map so page keys come from
  // index-only scans straight away.
  await db.execute(sql`vacuum analyze regular_titles`);
  await db.execute(sql`vacuum analyze adult_titles`);
}
