// How the Lighthouse benchmarks warm a page before measuring it.

/**
 * Asks for the page and for every width of every image it shows, as the shop's visitors keep
 * them warm: a drawn poster is rendered once per process (decision 014), and the first run of
 * a page would otherwise load while the server renders thirty of them on the same two cores.
 * `headers`: those the measured loads send too (a signed-in page's session cookie).
 */
export async function warm(url: string, headers: Record<string, string> = {}) {
  const html = await (await fetch(url, { headers })).text();
  const images = new Set<string>();
  for (const tag of html.matchAll(/<img\b[^>]*>/g)) {
    for (const [, attribute] of tag[0].matchAll(/\s(?:src|srcset)="([^"]+)"/gi)) {
      for (const candidate of attribute!.split(",")) images.add(candidate.trim().split(/\s+/)[0]!);
    }
  }
  await Promise.all(
    [...images]
      .filter((image) => image.startsWith("/"))
      .map(async (image) => (await fetch(new URL(image, url), { headers })).arrayBuffer()),
  );
}
