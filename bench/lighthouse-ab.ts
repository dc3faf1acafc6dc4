// `npm run bench:lighthouse-ab -- <git ref>`: does a change move a page's Lighthouse score, or
// is the difference the machine's moment? Builds the given commit in a temporary checkout (with
// this checkout's node_modules), starts it and this checkout's build side by side, each with the
// demo catalogue, and runs Lighthouse (mobile, performance only) on the same page of both in
// turn, at one fixed CPU slowdown for every run. Prints every run and, per build, the medians of
// the score and of the total blocking time.
//
// The whole score of one run moves with the moment on a shared two-core machine (decision 013:
// the same build's median blocking time moved between 82 and 330 ms from one batch to the next);
// runs alternating between the two builds see the same moments.
//
//   npm run bench:lighthouse-ab -- <ref> [--page /] [--pairs 10] [--slowdown 9]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { throttling } from "lighthouse/core/config/constants.js";
import { buildIfStale } from "#server/build-stamp.ts";
import { startDemoShop } from "#tests/support/server-process.ts";
import { chromiumFlags, launchChromium } from "./chromium.ts";
import { warm } from "./warm.ts";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    page: { type: "string", default: "/" },
    pairs: { type: "string", default: "10" },
    slowdown: { type: "string", default: "9" },
  },
});
const ref = positionals[0];
if (!ref) {
  console.error(
    "Usage: npm run bench:lighthouse-ab -- <git ref> [--page /] [--pairs 10] [--slowdown 9]",
  );
  process.exit(2);
}
const pairs = Math.max(1, Number(args.pairs) || 10);
const slowdown = Number(args.slowdown) || 9;

const root = path.resolve(import.meta.dirname, "..");
const git = (...gitArgs: string[]) =>
  execFileSync("git", gitArgs, { cwd: root, encoding: "utf8" }).trim();
const commit = git("rev-parse", "--short", `${ref}^{commit}`);

if ((await buildIfStale()) !== 0) process.exit(1);
const other = fs.mkdtempSync(path.join(os.tmpdir(), "shop-ab-"));
git("worktree", "add", "--detach", other, commit);
type Shop = { name: string; url: string; stop: () => Promise<number> };
const shops: Shop[] = [];
let chrome: Awaited<ReturnType<typeof launchChromium>> | undefined;
try {
  fs.symlinkSync(path.join(root, "node_modules"), path.join(other, "node_modules"));
  console.log(`Building ${commit} in a temporary checkout…`);
  execFileSync(process.execPath, ["scripts/build.ts"], { cwd: other, stdio: "ignore" });
  const otherServer: { startDemoShop: typeof startDemoShop } = await import(
    path.join(other, "tests/support/server-process.ts")
  );
  shops.push({ name: commit, ...(await otherServer.startDemoShop("ab")) });
  shops.push({ name: "this checkout", ...(await startDemoShop("ab")) });
  for (const shop of shops) await warm(`${shop.url}${args.page}`);
  chrome = await launchChromium(chromiumFlags());

  const results = new Map<string, { score: number; tbt: number }[]>();
  for (let pair = 0; pair < pairs; pair++) {
    // Alternate which build goes first, so that neither always follows the other.
    for (const shop of pair % 2 ? [...shops].reverse() : shops) {
      const result = await lighthouse(
        `${shop.url}${args.page}`,
        { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] },
        {
          extends: "lighthouse:default",
          settings: { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: slowdown } },
        },
      );
      if (!result) throw new Error(`no Lighthouse result for ${shop.url}${args.page}`);
      const run = {
        score: Math.round((result.lhr.categories.performance?.score ?? 0) * 100),
        tbt: result.lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
      };
      results.set(shop.name, [...(results.get(shop.name) ?? []), run]);
      console.log(
        `pair ${pair + 1}/${pairs}, ${shop.name}: performance ${run.score}, TBT ${run.tbt.toFixed(0)} ms (benchmarkIndex ${result.lhr.environment.benchmarkIndex.toFixed(0)})`,
      );
    }
  }
  console.log(`\n${args.page} at a CPU slowdown of ${slowdown}×, ${pairs} pairs:`);
  for (const [name, runs] of results) {
    const scores = runs.map((run) => run.score);
    const tbts = runs.map((run) => run.tbt);
    console.log(
      `${name}: performance median ${median(scores)} (${scores.join(", ")}); TBT median ${median(tbts).toFixed(0)} ms (${tbts.map((tbt) => tbt.toFixed(0)).join(", ")})`,
    );
  }
} finally {
  chrome?.kill();
  for (const shop of shops) await shop.stop();
  git("worktree", "remove", "--force", other);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
