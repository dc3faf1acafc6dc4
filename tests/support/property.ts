import type { Parameters } from "fast-check";

/**
 * The options of a property-based test: its number of generated cases, and the seed from
 * PROPERTY_SEED when one is given, to replay a run that failed (fast-check prints the seed and
 * the path of the failing case with the counterexample).
 */
export function propertyRuns(numRuns: number): Parameters<unknown> {
  const seed = process.env.PROPERTY_SEED;
  return seed ? { numRuns, seed: Number(seed) } : { numRuns };
}
