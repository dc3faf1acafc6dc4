import { describe, expect, it } from "vitest";
import { boundedWork } from "./bounded-work.ts";

/** A task that runs until it is told to finish. */
function held() {
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));
  let started = false;
  return {
    task: () => {
      started = true;
      return done;
    },
    finish,
    get started() {
      return started;
    },
  };
}

describe("bounded work", () => {
  it("runs a few tasks at once, the next waiting its turn, and refuses beyond the line", async () => {
    const work = boundedWork({ atOnce: 2, waiting: 1 });
    const [a, b, c, d] = [held(), held(), held(), held()];
    const running = [work.run(a.task), work.run(b.task)];
    const waitingTurn = work.run(c.task);
    expect(work.run(d.task)).toBeUndefined();
    expect([a.started, b.started, c.started, d.started]).toEqual([true, true, false, false]);
    expect(work.load).toEqual({ running: 2, waiting: 1 });

    a.finish("a");
    expect(await running[0]).toBe("a");
    await Promise.resolve();
    expect(c.started).toBe(true);
    expect(work.load).toEqual({ running: 2, waiting: 0 });

    b.finish("b");
    c.finish("c");
    expect(await Promise.all([running[1], waitingTurn])).toEqual(["b", "c"]);
    expect(work.load).toEqual({ running: 0, waiting: 0 });
  });

  it("frees a task's place when it fails", async () => {
    const work = boundedWork({ atOnce: 1, waiting: 0 });
    await expect(work.run(() => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    expect(work.load).toEqual({ running: 0, waiting: 0 });
    expect(await work.run(async () => "next")).toBe("next");
  });
});
