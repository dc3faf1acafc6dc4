// Posters drawn from a title are WebP images at the width the screen needs (decision 014): an
// SVG image would be a document of its own, parsed and painted on the page's main thread.
import type { Locator } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";

/** The address of the image the browser chose for `image`, once it has decoded it. */
async function shown(image: Locator) {
  await expect
    .poll(() =>
      image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth),
    )
    .toBeGreaterThan(0);
  return image.evaluate((element: HTMLImageElement) => new URL(element.currentSrc).pathname);
}

test("a phone gets each drawn poster as a WebP of the width it shows it at", async ({
  browser,
}) => {
  // A phone like Lighthouse's: 412 CSS pixels wide, 1.75 device pixels to each.
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
  });
  const page = await context.newPage();
  try {
    await page.goto("/");
    const row = page.getByRole("region", { name: "New Arrivals posters" });
    // Cards 160 px wide: 280 device pixels, so the 320 width.
    // The posters are decoration beside the titles' names (alt=""): no role of their own.
    expect(await shown(row.locator("img").first())).toMatch(/^\/posters\/regular\/\d+-320\.webp$/);
    const sources = await page
      .locator("img.poster")
      .evaluateAll((images: HTMLImageElement[]) => images.map((image) => image.src));
    expect(sources.length).toBeGreaterThan(10);
    for (const source of sources) expect(source).toMatch(/\/posters\/[a-z-]+\/\d+-320\.webp$/);

    // Half the screen in the catalogue's grid: 360 device pixels, so the 640 width.
    await page.goto("/movies");
    expect(await shown(page.getByRole("main").locator("img.poster").first())).toMatch(
      /^\/posters\/regular\/\d+-640\.webp$/,
    );
  } finally {
    await context.close();
  }
});

test("a drawn poster answers at its three widths, and as SVG at its old address", async ({
  request,
}) => {
  for (const width of [160, 320, 640]) {
    const response = await request.get(`/posters/regular/1-${width}.webp`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/webp");
    expect(response.headers()["cache-control"]).toBe(
      "public, max-age=86400, stale-while-revalidate=604800",
    );
    // RIFF….WEBP
    expect((await response.body()).subarray(8, 12).toString()).toBe("WEBP");
  }
  const svg = await request.get("/posters/regular/1.svg");
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");

  for (const file of [
    "1-999.webp",
    "1-320.png",
    "1-320.webp.svg",
    "0-320.webp",
    "99999999-320.webp",
  ]) {
    const response = await request.get(`/posters/regular/${file}`);
    expect(response.status(), file).toBe(404);
    expect(await response.json(), file).toEqual({ error: "No such poster." });
  }
});
