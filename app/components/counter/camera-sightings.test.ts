import { describe, expect, test } from "vitest";
import { OUT_OF_SIGHT_MS, watchCodes } from "./camera-sightings.ts";

describe("what the counter's camera takes from the frames it reads", () => {
  test("a code held in view for many frames is taken once", () => {
    const sight = watchCodes();
    expect(sight(["4006381333931"], 0)).toEqual({ taken: ["4006381333931"], stillInView: [] });
    // Ten seconds of frames a tenth of a second apart, with the same code in each.
    for (let now = 100; now <= 10_000; now += 100) {
      expect(sight(["4006381333931"], now)).toEqual({
        taken: [],
        stillInView: ["4006381333931"],
      });
    }
  });

  test("frames a moving hand blurs do not count as the code leaving", () => {
    const sight = watchCodes();
    sight(["4006381333931"], 0);
    expect(sight([], 400).taken).toEqual([]);
    expect(sight([], 800).taken).toEqual([]);
    expect(sight(["4006381333931"], OUT_OF_SIGHT_MS).taken).toEqual([]);
  });

  test("a second copy shown after the first was out of sight is taken again", () => {
    const sight = watchCodes();
    sight(["4006381333931"], 0);
    sight(["4006381333931"], 500);
    expect(sight([], 700).taken).toEqual([]);
    expect(sight(["4006381333931"], 500 + OUT_OF_SIGHT_MS + 1)).toEqual({
      taken: ["4006381333931"],
      stillInView: [],
    });
  });

  test("two products in one frame are both taken, a code twice in a frame once", () => {
    const sight = watchCodes();
    expect(sight(["4006381333931", "0012345678905", "4006381333931"], 0)).toEqual({
      taken: ["4006381333931", "0012345678905"],
      stillInView: [],
    });
    // The first stays, the other goes; a third comes.
    expect(sight(["4006381333931", "96385074"], 200)).toEqual({
      taken: ["96385074"],
      stillInView: ["4006381333931"],
    });
  });

  test("each camera session starts afresh", () => {
    watchCodes()(["4006381333931"], 0);
    expect(watchCodes()(["4006381333931"], 10).taken).toEqual(["4006381333931"]);
  });
});
