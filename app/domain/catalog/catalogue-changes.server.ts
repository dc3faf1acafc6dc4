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
  return {
    now: catalogueGeneration,
    recall(key: string): V | undefined {
      return current() === undefined ? undefined : entries.get(key);
    },
    keep(since: number | undefined, key: string, value: V) {
      if (since === undefined || since !== current()) return;
      if (options.sizeOf(value) <= options.maxSize) entries.set(key, value);
    },
  };
}
