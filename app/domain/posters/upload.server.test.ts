import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeS3, startFakeS3 } from "#tests/support/fake-s3.ts";
import { createLocalStorage, createS3Storage, type PosterStorage } from "./storage.server.ts";
import { MAX_IMAGE_BYTES } from "./checked-image.server.ts";
import { deleteUploadedPoster, POSTER_MESSAGES, processPosterUpload } from "./upload.server.ts";

/** A real photo-like image: a gradient with noise, so encoders have something to work on. */
function pixels(width: number, height: number, channels: 3 | 4 = 3): Buffer {
  const data = Buffer.alloc(width * height * channels);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const i = (y * width + x) * channels;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = seed & 0xff;
      if (channels === 4) data[i + 3] = 128 + (seed & 0x7f);
    }
  }
  return data;
}

type Format = "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff";

async function image(
  format: Format,
  width = 800,
  height = 1200,
  channels: 3 | 4 = 3,
): Promise<Buffer> {
  return sharp(pixels(width, height, channels), { raw: { width, height, channels } })
    .toFormat(format, format === "avif" ? { effort: 0 } : {})
    .toBuffer();
}

/** A PNG written chunk by chunk, for files sharp would refuse to write. */
function png(width: number, height: number, idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth 1
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** 30000 × 30000 pixels (900 megapixels, over 100 MB decoded) in a file of about 100 KB. */
function decompressionBomb(): Buffer {
  const side = 30_000;
  const rowBytes = 1 + side / 8;
  return png(side, side, deflateSync(Buffer.alloc(rowBytes * side), { level: 9 }));
}

let dir: string;
let storage: PosterStorage;

async function stored(): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), "posters-")), "uploads", "posters");
  storage = createLocalStorage(dir);
});

afterEach(async () => {
  await rm(path.dirname(path.dirname(dir)), { recursive: true, force: true });
});

const upload = (bytes: Uint8Array, name = "poster.jpg", kind: "regular" | "adult" = "regular") =>
  processPosterUpload(bytes, name, { kind, storage });

async function expectRefused(bytes: Uint8Array, message: string, name?: string) {
  const result = await upload(bytes, name);
  expect(result).toEqual({ ok: false, message });
  expect(await stored()).toEqual([]);
}

describe("processPosterUpload: accepted images", () => {
  it.each(["jpeg", "png", "webp", "avif"] as const)(
    "re-encodes a %s to WebP in three widths under a new random id",
    async (format) => {
      const result = await upload(await image(format), `poster.${format}`);
      if (!result.ok) throw new Error(result.message);
      expect(result.id).toMatch(/^[0-9a-f]{32}$/);
      expect(result.widths).toEqual([160, 320, 640]);
      expect(result.posterUrl).toBe(`upload:${result.id}`);
      expect(await stored()).toEqual(
        [160, 320, 640].map((width) => `${result.id}-${width}.webp`).sort(),
      );
      for (const [width, height] of [
        [160, 240],
        [320, 480],
        [640, 960],
      ] as const) {
        const file = await storage.get(`${result.id}-${width}.webp`);
        expect(file?.contentType).toBe("image/webp");
        expect((await fileTypeFromBuffer(file!.bytes))?.mime).toBe("image/webp");
        const metadata = await sharp(file!.bytes).metadata();
        expect([metadata.format, metadata.width, metadata.height]).toEqual(["webp", width, height]);
      }
    },
  );

  it("never upscales and keeps the aspect ratio", async () => {
    const small = await upload(await image("png", 300, 450));
    if (!small.ok) throw new Error(small.message);
    const sizes = async (id: string) =>
      Promise.all(
        [160, 320, 640].map(async (width) => {
          const metadata = await sharp(
            (await storage.get(`${id}-${width}.webp`))!.bytes,
          ).metadata();
          return [metadata.width, metadata.height];
        }),
      );
    expect(await sizes(small.id)).toEqual([
      [160, 240],
      [300, 450],
      [300, 450],
    ]);

    const wide = await upload(await image("jpeg", 1000, 500));
    if (!wide.ok) throw new Error(wide.message);
    expect(await sizes(wide.id)).toEqual([
      [160, 80],
      [320, 160],
      [640, 320],
    ]);
  });

  it("applies the EXIF orientation, then drops every piece of metadata", async () => {
    const rotated = await sharp(pixels(400, 600), { raw: { width: 400, height: 600, channels: 3 } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: "<script>alert(1)</script>", Artist: "someone" } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(rotated).metadata()).orientation).toBe(6);
    const result = await upload(rotated);
    if (!result.ok) throw new Error(result.message);
    const bytes = (await storage.get(`${result.id}-640.webp`))!.bytes;
    const metadata = await sharp(bytes).metadata();
    expect([metadata.width, metadata.height]).toEqual([600, 400]);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(Buffer.from(bytes).toString("latin1")).not.toMatch(/script|someone/);
  });

  it("keeps transparency and accepts 16-bit PNGs", async () => {
    const alpha = await upload(await image("png", 400, 600, 4), "alpha.png");
    if (!alpha.ok) throw new Error(alpha.message);
    const metadata = await sharp((await storage.get(`${alpha.id}-320.webp`))!.bytes).metadata();
    expect(metadata.hasAlpha).toBe(true);

    const deep = await sharp(pixels(400, 600), { raw: { width: 400, height: 600, channels: 3 } })
      .toColourspace("rgb16")
      .png()
      .toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe("ushort");
    const result = await upload(deep, "deep.png");
    expect(result.ok).toBe(true);
  });

  it("converts CMYK and greyscale JPEGs to sRGB", async () => {
    const raw = sharp(pixels(400, 600), { raw: { width: 400, height: 600, channels: 3 } });
    for (const bytes of [
      await raw.clone().toColourspace("cmyk").jpeg().toBuffer(),
      await raw.clone().greyscale().jpeg().toBuffer(),
    ]) {
      const result = await upload(bytes);
      if (!result.ok) throw new Error(result.message);
      const metadata = await sharp((await storage.get(`${result.id}-320.webp`))!.bytes).metadata();
      expect(metadata.space).toBe("srgb");
    }
  });

  it("gives every upload its own id, marked for adult titles", async () => {
    const bytes = await image("jpeg", 320, 480);
    const first = await upload(bytes);
    const second = await upload(bytes);
    const adult = await upload(bytes, "poster.jpg", "adult");
    if (!first.ok || !second.ok || !adult.ok) throw new Error("refused");
    expect(first.id).not.toBe(second.id);
    expect(adult.id).toMatch(/^adult-[0-9a-f]{32}$/);
    expect(await stored()).toHaveLength(9);
  });

  it("accepts an image of exactly 40 megapixels", async () => {
    const bytes = await sharp({
      create: { width: 8000, height: 5000, channels: 3, background: "#224466" },
    })
      .png()
      .toBuffer();
    const result = await upload(bytes, "big.png");
    expect(result.ok).toBe(true);
  });

  it("deletes every width of a replaced poster and ignores other values", async () => {
    const result = await upload(await image("jpeg", 320, 480));
    if (!result.ok) throw new Error(result.message);
    await deleteUploadedPoster("https://images.example/poster.jpg", storage);
    await deleteUploadedPoster(null, storage);
    expect(await stored()).toHaveLength(3);
    await deleteUploadedPoster(result.posterUrl, storage);
    expect(await stored()).toEqual([]);
  });
});

describe("processPosterUpload: refused files store nothing", () => {
  const html = "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>";

  it("refuses an empty file", async () => {
    await expectRefused(new Uint8Array(0), POSTER_MESSAGES.empty);
  });

  it("refuses a file over 10 MB before looking at it", async () => {
    const bytes = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    (await image("jpeg", 64, 96)).copy(bytes);
    await expectRefused(bytes, POSTER_MESSAGES.tooLarge);
    expect(POSTER_MESSAGES.tooLarge).toBe("The poster is larger than 10 MB.");
  });

  it("refuses SVG, even named .jpg", async () => {
    const svg = Buffer.from(
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="320" height="480"><script>alert(1)</script><rect width="320" height="480"/></svg>`,
    );
    await expectRefused(svg, POSTER_MESSAGES.type, "poster.jpg");
    await expectRefused(svg, POSTER_MESSAGES.type, "poster.svg");
    expect(POSTER_MESSAGES.type).toBe("The poster must be a JPEG, PNG, WebP or AVIF image.");
  });

  it("refuses HTML renamed to .jpg", async () => {
    await expectRefused(Buffer.from(html), POSTER_MESSAGES.type, "poster.jpg");
  });

  it("refuses GIF and TIFF images", async () => {
    await expectRefused(await image("gif", 200, 300), POSTER_MESSAGES.type, "poster.gif");
    await expectRefused(await image("tiff", 200, 300), POSTER_MESSAGES.type, "poster.jpg");
  });

  it("refuses polyglots that only start like an image", async () => {
    await expectRefused(Buffer.from(`GIF89a${html}`), POSTER_MESSAGES.type, "poster.jpg");
    const jpegThenHtml = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(html)]);
    await expectRefused(jpegThenHtml, POSTER_MESSAGES.damaged);
    const pngThenHtml = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from(html),
    ]);
    // Not even a PNG to file-type (no header chunk), so refused by type.
    await expectRefused(pngThenHtml, POSTER_MESSAGES.type);
  });

  it("stores only the re-encoding of a real image carrying a script, never the script", async () => {
    const polyglot = Buffer.concat([await image("jpeg", 320, 480), Buffer.from(html)]);
    const result = await upload(polyglot);
    if (!result.ok) throw new Error(result.message);
    for (const file of await stored()) {
      const bytes = (await storage.get(file))!.bytes;
      expect((await fileTypeFromBuffer(bytes))?.mime).toBe("image/webp");
      expect(Buffer.from(bytes).toString("latin1")).not.toContain("script");
    }
  });

  it.each(["jpeg", "png", "webp", "avif"] as const)("refuses a truncated %s", async (format) => {
    const bytes = await image(format, 400, 600);
    await expectRefused(bytes.subarray(0, Math.floor(bytes.length * 0.6)), POSTER_MESSAGES.damaged);
  });

  it("refuses a decompression bomb (a small PNG declaring 30000 × 30000 pixels)", async () => {
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expectRefused(bomb, POSTER_MESSAGES.pixels, "poster.png");
    expect(POSTER_MESSAGES.pixels).toBe("The image is too large (more than 40 megapixels).");
  });

  it("refuses just over 40 megapixels, and absurdly long sides", async () => {
    // Header only: the dimensions alone must be enough to refuse.
    await expectRefused(png(8000, 5001, deflateSync(Buffer.alloc(10))), POSTER_MESSAGES.pixels);
    await expectRefused(png(16_001, 16, deflateSync(Buffer.alloc(10))), POSTER_MESSAGES.side);
  });

  it("refuses a PNG whose pixel data is garbage", async () => {
    await expectRefused(png(100, 150, Buffer.from("not deflate data")), POSTER_MESSAGES.damaged);
  });

  it.each([
    "../../etc/passwd.jpg",
    "..",
    "posters/../../poster.jpg",
    "C:\\Users\\me\\poster.jpg",
    "/etc/poster.jpg",
    "poster\u0000.jpg",
    "poster\n.jpg",
    "",
    `${"a".repeat(300)}.jpg`,
  ])("refuses the file name %j, image or not", async (name) => {
    await expectRefused(await image("jpeg", 160, 240), POSTER_MESSAGES.name, name);
  });
});

describe("processPosterUpload: a failing store", () => {
  it("removes what it wrote when a later write fails", async () => {
    let puts = 0;
    const failing: PosterStorage = {
      ...storage,
      async put(key, bytes, contentType) {
        if (++puts === 3) throw new Error("disk full");
        await storage.put(key, bytes, contentType);
      },
    };
    const result = await processPosterUpload(await image("jpeg", 320, 480), "poster.jpg", {
      kind: "regular",
      storage: failing,
    });
    expect(result).toMatchObject({ ok: false, message: POSTER_MESSAGES.storage });
    expect(await stored()).toEqual([]);
  });
});

describe("processPosterUpload into an S3-compatible bucket (real SDK, local stand-in)", () => {
  let s3: FakeS3;
  let bucket: PosterStorage;

  beforeAll(async () => {
    s3 = await startFakeS3();
    bucket = createS3Storage({
      bucket: s3.bucket,
      region: "us-east-1",
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
  });
  afterAll(() => s3.close());
  beforeEach(() => {
    s3.objects.clear();
    s3.requests.length = 0;
    s3.failPutsAfter(undefined);
  });

  it("stores the three WebP widths as objects", async () => {
    const result = await processPosterUpload(await image("png", 400, 600), "poster.png", {
      kind: "regular",
      storage: bucket,
    });
    if (!result.ok) throw new Error(result.message);
    expect([...s3.objects.keys()].sort()).toEqual(
      [160, 320, 640].map((width) => `${result.id}-${width}.webp`).sort(),
    );
    for (const object of s3.objects.values()) expect(object.contentType).toBe("image/webp");
    const file = await bucket.get(`${result.id}-320.webp`);
    expect((await sharp(file!.bytes).metadata()).width).toBe(320);
  });

  it("stores nothing for a refused file, and cleans up when the bucket fails midway", async () => {
    const refused = await processPosterUpload(Buffer.from("<svg/>"), "poster.jpg", {
      kind: "regular",
      storage: bucket,
    });
    expect(refused).toEqual({ ok: false, message: POSTER_MESSAGES.type });
    expect(s3.requests.filter((request) => request.method === "PUT")).toHaveLength(0);

    s3.failPutsAfter(1);
    const failed = await processPosterUpload(await image("jpeg", 320, 480), "poster.jpg", {
      kind: "regular",
      storage: bucket,
    });
    expect(failed).toMatchObject({ ok: false, message: POSTER_MESSAGES.storage });
    expect(s3.objects.size).toBe(0);
  });
});
