/**
 * Which version of the catalogue this process has seen, for answers remembered in memory until
 * the catalogue changes (the "no match" suggestions). The server bumps it on every change the
 * database announces (server/page-cache.ts watchCatalogue); a process where nobody listens
 * (development, tests) has no generation, and nothing is remembered.
 *
 * The server entry and the built app are separate module graphs: the state lives on globalThis,
 * like the database handle, so both see the one counter.
 */
import { LRUCache } from "lru-cache";

type CatalogueChanges = { generation: number };

const shared = globalThis as typeof globalThis & { __shopCatalogueChanges?: CatalogueChanges };

/** Called by the process that listens for `catalogue_changed`, once it listens. */
export function watchingCatalogueChanges(): void {
  shared.__shopCatalogueChanges ??= { generation: 0 };
}

/** A change that may show anywhere (anything but stock alone): remembered answers are stale. */
export function catalogueChanged(): void {
  if (shared.__shopCatalogueChanges) shared.__shopCatalogueChanges.generation++;
}

/** The current generation, or undefined when no one listens (then remember nothing). */
export function catalogueGeneration(): number | undefined {
  return shared.__shopCatalogueChanges?.generation;
}

/** Stops remembering (the listener stopped). */
export function stopWatchingCatalogueChanges(): void {
  shared.__shopCatalogueChanges = undefined;
}

/**
 * Answers remembered by key (a search text) for the generation they were looked up in, the
 * least recently used dropped past `maxSize` (as `sizeOf` counts). Read the generation with
 * `now()` before looking the answer up, and `keep` it with that: an answer looked up while the
 * catalogue changed is not kept.
 */
export function catalogueMemory<V extends object>(options: {
  maxSize: number;
  sizeOf: (value: V) => number;
}) {
  let generation: number | undefined;
  // Bounded by size alone: with a `max` count the cache allocates (and clears) arrays of that
  // many slots up front, 0.2 s of each process's start for a million.
  const entries = new LRUCache<string, V>({
    maxSize: options.maxSize,
    sizeCalculation: (value) => Math.max(1, options.sizeOf(value)),
  });
  const current = () => {
    const now = catalogueGeneration();
    if (now !== generation) {
      entries.clear();
      generation = now;
    }
    return now;
  };
  // Look-ups under way, by generation and key: requests meanwhile share them.
  const underWay = new Map<string, Promise<V>>();
  const recall = (key: string): V | undefined =>
    current() === undefined ? undefined : entries.get(key);
  const keep = (since: number | undefined, key: string, value: V) => {
    if (since === undefined || since !== current()) return;
    if (options.sizeOf(value) <= options.maxSize) entries.set(key, value);
  };
  return {
    now: catalogueGeneration,
    recall,
    keep,
    /**
     * The remembered answer, else `load`'s, kept; one load at a time per key and generation
     * (whoever asks meanwhile waits for it). Undefined when no one listens for changes.
     */
    async lookUp(key: string, load: () => Promise<V>): Promise<V | undefined> {
      const since = catalogueGeneration();
      if (since === undefined) return undefined;
      const known = recall(key);
      if (known) return known;
      const id = `${since}:${key}`;
      let pending = underWay.get(id);
      if (!pending) {
        pending = load();
        underWay.set(id, pending);
        const done = () => underWay.delete(id);
        pending.then((value) => {
          done();
          keep(since, key, value);
        }, done);
      }
      return pending;
    },
  };
}
