import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { UPLOADED_POSTER_WIDTHS } from "#app/lib/uploaded-posters.ts";
import { drawnPosterWebp } from "./poster-art.server.ts";

const title = { title: "The Quiet Harbor", subtitle: "1987", band: "Blu-ray" };

describe("drawn posters as WebP", () => {
  it.each(UPLOADED_POSTER_WIDTHS)("draws the poster %d pixels wide, 2:3", async (width) => {
    const metadata = await sharp(await drawnPosterWebp(title, width)).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual([
      "webp",
      width,
      (width * 3) / 2,
    ]);
  });

  it("draws the title's text: a poster of another title differs", async () => {
    const pixels = async (input: typeof title) =>
      (
        await sharp(await drawnPosterWebp(input, 160))
          .raw()
          .toBuffer()
      ).toString("base64");
    // Same palette and shapes (they follow the title), different text below the title.
    expect(await pixels(title)).not.toBe(await pixels({ ...title, subtitle: "1988" }));
  });

  it("renders a drawing once, however often it is asked for", async () => {
    const input = { title: "Asked For Twice" };
    expect(drawnPosterWebp(input, 320)).toBe(drawnPosterWebp(input, 320));
    expect(drawnPosterWebp(input, 320)).not.toBe(drawnPosterWebp(input, 160));
  });
});
