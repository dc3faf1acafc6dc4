// `npm start`: builds the app when the build is missing or older than the sources, then
// serves it. Production deployments build once (`npm run build`) and run server/index.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stampFile = path.join(root, "build/.sources-mtime");

function newestMtime(entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) {
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

const sources = ["app", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];
const sourcesMtime = String(Math.max(...sources.map(newestMtime)));
const built =
  fs.existsSync(path.join(root, "build/server/index.js")) &&
  fs.existsSync(stampFile) &&
  fs.readFileSync(stampFile, "utf8") === sourcesMtime;

if (!built) {
  console.log("Building the shop (first start or changed sources)…");
  const result = spawnSync("react-router", ["build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(stampFile, sourcesMtime);
}

await import("./index.ts");
