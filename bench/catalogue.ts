// Load test of the catalogue against a running shop:
//   npm run db:seed -- --regular 100000 --adult 20000 && npm start   (in one terminal)
//   node bench/catalogue.ts [http://127.0.0.1:3000] [seconds]        (in another)
// Prints requests/s and latency percentiles per endpoint at 32 connections.
import autocannon from "autocannon";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const seconds = Number(process.argv[3] ?? 10);

const targets: [string, string][] = [
  ["catalogue page 1", "/movies"],
  ["catalogue page 2000", "/movies?page=2000"],
  ["catalogue page 1000, DVD, A→Z", "/movies?page=1000&disc=DVD&sort=az"],
  ["title page", "/movies/50000"],
  ["suggestions 'the'", "/api/search/suggestions?query=the"],
  ["suggestions 'river 7'", "/api/search/suggestions?query=river%207"],
  ["suggestions (no match)", "/api/search/suggestions?query=qqqzzz"],
  ["suggestions director 'spielberg'", "/api/search/suggestions?query=spielberg"],
  ["suggestions director 'lindqvist'", "/api/search/suggestions?query=lindqvist"],
  ["suggestions cast 'tom hanks'", "/api/search/suggestions?query=tom%20hanks"],
  ["suggestions typo 'godfathr'", "/api/search/suggestions?query=godfathr"],
  ["suggestions typo 'spielburg'", "/api/search/suggestions?query=spielburg"],
  ["full search 'the'", "/search?query=the&page=50"],
  ["full search 'spielberg'", "/search?query=spielberg"],
  ["full search typo 'godfathr'", "/search?query=godfathr"],
  ["full search (no match)", "/search?query=qqqzzz"],
  ["catalogue Drama, price ↑, page 100", "/movies?genre=Drama&sort=price-asc&page=100"],
  ["catalogue newest, page 1000", "/movies?sort=newest&page=1000"],
  ["home", "/"],
];

console.log(`${base}, ${seconds} s per endpoint, 32 connections`);
console.log(
  "endpoint".padEnd(38),
  "req/s".padStart(8),
  "p50 ms".padStart(8),
  "p99 ms".padStart(8),
  "non-2xx".padStart(8),
);
for (const [name, path] of targets) {
  const result = await autocannon({ url: `${base}${path}`, connections: 32, duration: seconds });
  console.log(
    name.padEnd(38),
    result.requests.average.toFixed(0).padStart(8),
    String(result.latency.p50).padStart(8),
    String(result.latency.p99).padStart(8),
    String(result.non2xx).padStart(8),
  );
}
