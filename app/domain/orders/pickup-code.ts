import { randomInt } from "node:crypto";

// A pickup order's code (decision 023, point 8): short enough to read out or type at the counter,
// from letters and digits nobody mixes up (no 0/O, 1/I/L), and random: 31⁸ ≈ 8.5 × 10¹¹ codes,
// so a guessed one finds nothing. Unique by the database's index; a clash draws again.

export const PICKUP_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const PICKUP_CODE_LENGTH = 8;

export function newPickupCode(random: (max: number) => number = randomInt): string {
  let code = "";
  for (let i = 0; i < PICKUP_CODE_LENGTH; i++) {
    code += PICKUP_CODE_ALPHABET[random(PICKUP_CODE_ALPHABET.length)];
  }
  return code;
}

/** A code as typed or scanned: spaces and dashes dropped, any case. Null when it cannot be one. */
export function readPickupCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== PICKUP_CODE_LENGTH) return null;
  return [...code].every((char) => PICKUP_CODE_ALPHABET.includes(char)) ? code : null;
}
