// First-load JavaScript of a page, as decision 006 budgets it: the files a browser loads before
// the page is interactive (the modules its HTML imports and their imports), as level-9 gzip,
// split into the shop's own code and the libraries' (React DOM, React Router, the bundler's
// glue) by what each file of the build is made of (`build/chunk-origins.json`, written by the
// build). A file is split in proportion to the bytes each side has in it.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { CHUNK_ORIGINS_FILE, type ChunkOrigins } from "./chunk-origins.ts";

const clientDir = path.resolve(import.meta.dirname, "../build/client");

export type FirstLoad = { files: number; gzip: number; shop: number; libraries: number };

/** Decision 006's budget for `/`, in gzip bytes: in all, and the shop's own code. */
export const FIRST_LOAD_BUDGET = { gzip: 130_000, shop: 20_000 };

/**
 * The first-load JavaScript of the page at `url` of a running shop, in gzip bytes; `headers`
 * for a page that needs them (a signed-in page's session cookie).
 */
export async function firstLoad(
  url: string,
  headers: Record<string, string> = {},
): Promise<FirstLoad> {
  const html = await (await fetch(url, { headers })).text();
  if (!fs.existsSync(CHUNK_ORIGINS_FILE)) {
    throw new Error(`${CHUNK_ORIGINS_FILE} is missing: build the shop first (npm run build).`);
  }
  const origins = JSON.parse(fs.readFileSync(CHUNK_ORIGINS_FILE, "utf8")) as ChunkOrigins;
  // Every file the page's scripts and its inline route manifest name, but the manifest's own
  // module: the page carries it inline, so the browser does not load that file.
  const manifestFile = /"url":\s*"(\/assets\/manifest-[\w-]+\.js)"/.exec(html)?.[1];
  const files = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])].filter(
    (file) => file !== manifestFile,
  );
  const result: FirstLoad = { files: files.length, gzip: 0, shop: 0, libraries: 0 };
  for (const file of files) {
    const source = fs.readFileSync(path.join(clientDir, file));
    const gzip = zlib.gzipSync(source, { level: 9 }).length;
    // A file the bundler did not list would be the framework's.
    const origin = origins[file.slice(1)] ?? { shop: 0, libraries: 1 };
    const shopShare = origin.shop / Math.max(1, origin.shop + origin.libraries);
    result.gzip += gzip;
    result.shop += gzip * shopShare;
    result.libraries += gzip * (1 - shopShare);
  }
  return result;
}

/** "129.9 KB gzip (the shop's own code 17.7 KB, libraries 112.3 KB) in 25 files". */
export function describeFirstLoad(load: FirstLoad) {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  return `${kb(load.gzip)} gzip (the shop's own code ${kb(load.shop)}, libraries ${kb(load.libraries)}) in ${load.files} files`;
}
