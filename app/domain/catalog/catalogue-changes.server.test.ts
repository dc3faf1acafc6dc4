import { afterEach, describe, expect, it } from "vitest";
import {
  catalogueChanged,
  catalogueMemory,
  stopWatchingCatalogueChanges,
  watchingCatalogueChanges,
} from "./catalogue-changes.server.ts";

/** A load that answers when told to, counting how often it was started. */
function controlledLoad() {
  const started: ((value: { n: number }) => void)[] = [];
  const failed: ((error: Error) => void)[] = [];
  return {
    load: () =>
      new Promise<{ n: number }>((resolve, reject) => {
        started.push(resolve);
        failed.push(reject);
      }),
    get starts() {
      return started.length;
    },
    answer: (index: number, n: number) => started[index]!({ n }),
    fail: (index: number) => failed[index]!(new Error("database gone")),
  };
}

afterEach(() => stopWatchingCatalogueChanges());

describe("answers remembered until the catalogue changes", () => {
  it("share one look-up among everyone asking for the same text meanwhile", async () => {
    watchingCatalogueChanges();
    const memory = catalogueMemory<{ n: number }>({ maxSize: 10, sizeOf: () => 1 });
    const counted = controlledLoad();
    const { load, answer } = counted;
    const asked = [1, 2, 3].map(() => memory.lookUp("the", load));
    const other = memory.lookUp("man", load);
    expect(counted.starts).toBe(2);
    answer(0, 7);
    answer(1, 8);
    expect(await Promise.all(asked)).toEqual([{ n: 7 }, { n: 7 }, { n: 7 }]);
    expect(await other).toEqual({ n: 8 });
    // Kept: asked again, nothing is loaded.
    expect(await memory.lookUp("the", load)).toEqual({ n: 7 });
    expect(counted.starts).toBe(2);
  });

  it("look up again after a change, and keep nothing looked up across one", async () => {
    watchingCatalogueChanges();
    const memory = catalogueMemory<{ n: number }>({ maxSize: 10, sizeOf: () => 1 });
    const counted = controlledLoad();
    const { load, answer } = counted;
    const before = memory.lookUp("the", load);
    catalogueChanged();
    // The change makes the look-up under way stale: a new one starts for the new catalogue.
    const after = memory.lookUp("the", load);
    expect(counted.starts).toBe(2);
    answer(0, 1);
    answer(1, 2);
    expect(await before).toEqual({ n: 1 });
    expect(await after).toEqual({ n: 2 });
    expect(await memory.lookUp("the", load)).toEqual({ n: 2 });
    expect(counted.starts).toBe(2);
  });

  it("pass a failed look-up on to everyone waiting, and try again next time", async () => {
    watchingCatalogueChanges();
    const memory = catalogueMemory<{ n: number }>({ maxSize: 10, sizeOf: () => 1 });
    const counted = controlledLoad();
    const { load, answer, fail } = counted;
    const asked = [memory.lookUp("the", load), memory.lookUp("the", load)];
    fail(0);
    for (const waiting of asked) await expect(waiting).rejects.toThrow("database gone");
    const again = memory.lookUp("the", load);
    expect(counted.starts).toBe(2);
    answer(1, 3);
    expect(await again).toEqual({ n: 3 });
  });

  it("remember nothing where no one listens for changes", async () => {
    const memory = catalogueMemory<{ n: number }>({ maxSize: 10, sizeOf: () => 1 });
    const counted = controlledLoad();
    const { load } = counted;
    expect(await memory.lookUp("the", load)).toBeUndefined();
    expect(counted.starts).toBe(0);
  });
});
