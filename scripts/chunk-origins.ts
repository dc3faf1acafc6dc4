import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** Where `chunk-origins.json` is written: beside the client build, not served. */
export const CHUNK_ORIGINS_FILE = path.resolve(import.meta.dirname, "../build/chunk-origins.json");

/** What a client file is made of, in bytes of its code as written out: the shop's, the libraries'. */
export type ChunkOrigins = Record<string, { shop: number; libraries: number }>;

/**
 * Writes, for each JavaScript file of the client build, how much of it is the shop's own code
 * (`app/`) and how much comes from libraries (`node_modules`, and the bundler's and router's
 * generated glue), so that `scripts/first-load.ts` can report first-load JavaScript in those
 * two shares (decision 006).
 */
export function chunkOrigins(): Plugin {
  const appDir = `${path.resolve(import.meta.dirname, "../app")}${path.sep}`;
  return {
    name: "shop:chunk-origins",
    apply: "build",
    generateBundle(_options, bundle) {
      if (this.environment.name !== "client") return;
      const origins: ChunkOrigins = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        const share = { shop: 0, libraries: 0 };
        for (const [id, module] of Object.entries(output.modules)) {
          share[id.startsWith(appDir) ? "shop" : "libraries"] += module.renderedLength;
        }
        origins[output.fileName] = share;
      }
      fs.mkdirSync(path.dirname(CHUNK_ORIGINS_FILE), { recursive: true });
      fs.writeFileSync(CHUNK_ORIGINS_FILE, `${JSON.stringify(origins, null, 1)}\n`);
    },
  };
}
