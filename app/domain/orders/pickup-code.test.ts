import { describe, expect, it } from "vitest";
import {
  newPickupCode,
  PICKUP_CODE_ALPHABET,
  PICKUP_CODE_LENGTH,
  readPickupCode,
} from "./pickup-code.ts";

describe("pickup codes", () => {
  it("are eight characters nobody mixes up, drawn at random", () => {
    const codes = new Set(Array.from({ length: 200 }, () => newPickupCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) {
      expect(code).toHaveLength(PICKUP_CODE_LENGTH);
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]+$/);
    }
    expect(PICKUP_CODE_ALPHABET).not.toMatch(/[01ILO]/);
  });

  it("uses every character of the alphabet", () => {
    let next = 0;
    const code = newPickupCode((max) => next++ % max);
    expect(code).toBe(PICKUP_CODE_ALPHABET.slice(0, PICKUP_CODE_LENGTH));
  });

  it("reads a code typed in any case, with spaces or a dash, and refuses anything else", () => {
    expect(readPickupCode(" abcd-efgh ")).toBe("ABCDEFGH");
    expect(readPickupCode("7K3M 9QXZ")).toBe("7K3M9QXZ");
    expect(readPickupCode("ABCDEFG")).toBeNull();
    expect(readPickupCode("ABCDEFGO")).toBeNull();
    expect(readPickupCode("12345678")).toBeNull();
    expect(readPickupCode("")).toBeNull();
  });
});
