import { groupDigits } from "./digits.ts";

/** "1,234 orders", or "10,000+ orders" when a search was counted only so far. */
export function countLabel(total: number, capped: boolean, noun: string, plural = `${noun}s`) {
  const word = total === 1 && !capped ? noun : plural;
  return `${groupDigits(total)}${capped ? "+" : ""} ${word}`;
}
