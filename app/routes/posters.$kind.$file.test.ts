import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type * as DatabaseClient from "#app/db/client.server.ts";
import type { Database } from "#app/db/client.server.ts";
import { comingSoon } from "#app/db/schema.ts";
import { loader } from "./posters.$kind.$file.ts";
import { scratchDatabase } from "#tests/support/scratch-database.ts";
import { drawnPosterWebp } from "#app/domain/catalog/poster-art.server.ts";
import type * as PosterArt from "#app/domain/catalog/poster-art.server.ts";

const scratch = scratchDatabase();
const database = vi.hoisted(() => ({ current: undefined as Database | undefined }));

// The route's database is this file's own.
vi.mock("#app/db/client.server.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof DatabaseClient>()),
  getDb: () => database.current!,
}));

// The real drawing, with a way to make one render fail as it would without its fonts or memory.
vi.mock("#app/domain/catalog/poster-art.server.ts", async (importOriginal) => {
  const real = await importOriginal<typeof PosterArt>();
  return { ...real, drawnPosterWebp: vi.fn(real.drawnPosterWebp) };
});

let id: number;

beforeAll(async () => {
  database.current = scratch.db();
  const [row] = await scratch
    .db()
    .insert(comingSoon)
    .values({ title: "A Drawn Premiere", releaseDate: "2027-03-01", posterUrl: "" })
    .returning({ id: comingSoon.id });
  id = row!.id;
});

function get(file: string) {
  const request = new Request(`http://shop.test/posters/coming-soon/${file}`);
  // Only what the loader reads; the rest of React Router's arguments do not matter here.
  return loader({ params: { kind: "coming-soon", file }, request } as Parameters<typeof loader>[0]);
}

async function webpWidth(result: Awaited<ReturnType<typeof loader>>) {
  if (!(result instanceof Response)) {
    throw new Error(`expected an image, got ${JSON.stringify(result)}`);
  }
  expect(result.status).toBe(200);
  expect(result.headers.get("Content-Type")).toBe("image/webp");
  const metadata = await sharp(new Uint8Array(await result.arrayBuffer())).metadata();
  return metadata.format === "webp" ? metadata.width : undefined;
}

describe("GET /posters/:kind/:file", () => {
  it("answers a drawn poster as WebP of the width asked for", async () => {
    expect(await webpWidth(await get(`${id}-160.webp`))).toBe(160);
  });

  it("says the poster cannot be shown right now when drawing it fails, and draws it next time", async () => {
    vi.mocked(drawnPosterWebp).mockRejectedValueOnce(new Error("Fontconfig error: no fonts"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await get(`${id}-640.webp`)).toMatchObject({
      init: { status: 503 },
      data: { error: "The poster cannot be shown right now." },
    });
    expect(logged).toHaveBeenCalledWith(
      `Poster coming-soon/${id} at 640 px could not be drawn`,
      expect.objectContaining({ message: "Fontconfig error: no fonts" }),
    );
    logged.mockRestore();
    expect(await webpWidth(await get(`${id}-640.webp`))).toBe(640);
  });
});
