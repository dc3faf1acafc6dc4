/**
 * How long a code must be out of the camera's sight before it is taken again. A camera reads the
 * same barcode in frame after frame while the clerk holds the product up; a second copy of it is
 * added by taking the first away and showing the next one (or by changing the line's quantity).
 * Long enough to bridge the frames a moving hand blurs, short enough not to feel like a wait.
 */
export const OUT_OF_SIGHT_MS = 1500;

export type Sighting = {
  /** Codes that came into view: each goes to the scan field's queue, once. */
  taken: string[];
  /** Codes taken before and still in view: not added again. */
  stillInView: string[];
};

/**
 * Watches what the camera reads, frame after frame (each frame's codes and when it was read, in
 * milliseconds), and says which codes to take: a code when it comes into view, and again only
 * after it has been out of sight for `outOfSightMs`.
 */
export function watchCodes(outOfSightMs = OUT_OF_SIGHT_MS) {
  const lastSeen = new Map<string, number>();
  return function sight(codes: readonly string[], now: number): Sighting {
    const taken: string[] = [];
    const stillInView: string[] = [];
    for (const code of new Set(codes)) {
      const seen = lastSeen.get(code);
      if (seen === undefined || now - seen > outOfSightMs) taken.push(code);
      else stillInView.push(code);
      lastSeen.set(code, now);
    }
    for (const [code, seen] of lastSeen) {
      if (now - seen > outOfSightMs) lastSeen.delete(code);
    }
    return { taken, stillInView };
  };
}
