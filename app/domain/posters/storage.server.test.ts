import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeS3, startFakeS3 } from "#tests/support/fake-s3.ts";
import {
  createLocalStorage,
  createS3Storage,
  isStorageKey,
  type PosterStorage,
  uploadStorageConfig,
  posterStorageProblems,
} from "./storage.server.ts";

const bytes = new Uint8Array([1, 2, 3, 4, 5]);

/** Stored bytes as plain numbers (the disk answers a Buffer, the bucket a Uint8Array). */
async function read(storage: PosterStorage, key: string) {
  const file = await storage.get(key);
  return file && { bytes: [...file.bytes], contentType: file.contentType };
}

describe("local storage", () => {
  let base: string;
  let dir: string;
  let storage: PosterStorage;

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), "poster-storage-"));
    dir = path.join(base, "uploads", "posters");
    storage = createLocalStorage(dir);
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it("puts, gets and deletes, creating the directory on first write", async () => {
    expect(await storage.get("abc-320.webp")).toBeNull();
    await storage.put("abc-320.webp", bytes, "image/webp");
    expect(await read(storage, "abc-320.webp")).toEqual({
      bytes: [1, 2, 3, 4, 5],
      contentType: "image/webp",
    });
    await storage.put("abc-320.webp", new Uint8Array([9]), "image/webp");
    expect((await read(storage, "abc-320.webp"))?.bytes).toEqual([9]);
    await storage.delete("abc-320.webp");
    await storage.delete("abc-320.webp");
    expect(await storage.get("abc-320.webp")).toBeNull();
    // No temporary file is left behind.
    expect(await readdir(dir)).toEqual([]);
  });

  it("leaves no temporary file and keeps the old content when a write fails", async () => {
    await storage.put("abc-320.webp", bytes, "image/webp");
    // A directory where the file should go makes the rename fail.
    await mkdir(path.join(dir, "taken.webp"));
    await expect(storage.put("taken.webp", bytes, "image/webp")).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(["abc-320.webp", "taken.webp"]);
    expect((await read(storage, "abc-320.webp"))?.bytes).toEqual([1, 2, 3, 4, 5]);
  });

  const escapes = [
    "../outside.webp",
    "../../outside.webp",
    "..",
    ".",
    "",
    "a/b.webp",
    "a\\b.webp",
    "/etc/passwd",
    ".hidden",
    ".tmp-0123",
    "poster.webp\u0000.png",
    "%2e%2e%2foutside.webp",
    "UPPER.webp",
    "a..b",
    "a.b.c",
    "-leading.webp",
    `${"a".repeat(200)}.webp`,
  ];

  it.each(escapes)("refuses the key %j for every operation", async (key) => {
    expect(isStorageKey(key)).toBe(false);
    await expect(storage.put(key, bytes, "image/webp")).rejects.toThrow(/Not a valid storage key/);
    await expect(storage.get(key)).rejects.toThrow(/Not a valid storage key/);
    await expect(storage.delete(key)).rejects.toThrow(/Not a valid storage key/);
    expect(await readdir(base)).toEqual([]);
  });

  it("cannot be made to read or delete a file outside its directory", async () => {
    await writeFile(path.join(base, "secret.txt"), "secret");
    await mkdir(dir, { recursive: true });
    await expect(storage.get("../../secret.txt")).rejects.toThrow();
    await expect(storage.delete("../../secret.txt")).rejects.toThrow();
    expect(await readFile(path.join(base, "secret.txt"), "utf8")).toBe("secret");
  });
});

describe("choosing the storage from the environment", () => {
  it("uses DATA_DIR/uploads/posters by default", () => {
    expect(uploadStorageConfig("posters", { DATA_DIR: "/srv/shop" })).toEqual({
      kind: "local",
      dir: path.resolve("/srv/shop/uploads/posters"),
    });
  });

  it("uses the bucket once S3_BUCKET is set, path-style with a custom endpoint", () => {
    expect(
      uploadStorageConfig("posters", {
        DATA_DIR: "/srv/shop",
        S3_BUCKET: "shop-posters",
        S3_ENDPOINT: "http://minio:9000",
        S3_ACCESS_KEY_ID: "key",
        S3_SECRET_ACCESS_KEY: "secret",
      }),
    ).toEqual({
      kind: "s3",
      bucket: "shop-posters",
      region: "us-east-1",
      endpoint: "http://minio:9000",
      accessKeyId: "key",
      secretAccessKey: "secret",
      forcePathStyle: true,
    });
    expect(
      uploadStorageConfig("posters", {
        DATA_DIR: "/srv/shop",
        S3_BUCKET: "shop-posters",
        S3_REGION: "eu-west-1",
        S3_FORCE_PATH_STYLE: false,
      }),
    ).toMatchObject({ kind: "s3", region: "eu-west-1", forcePathStyle: false });
  });

  it("keeps repair photos apart from posters: a private directory, a private prefix in the bucket", () => {
    expect(uploadStorageConfig("repair-photos", { DATA_DIR: "/srv/shop" })).toEqual({
      kind: "local",
      dir: path.resolve("/srv/shop/uploads/private/repair-photos"),
    });
    expect(
      uploadStorageConfig("repair-photos", { DATA_DIR: "/srv/shop", S3_BUCKET: "shop-posters" }),
    ).toMatchObject({
      kind: "s3",
      bucket: "shop-posters",
      keyPrefix: "private/repair-photos/",
    });
  });

  it("names what is missing or half set", () => {
    expect(posterStorageProblems({ DATA_DIR: ".", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toEqual(
      [
        {
          variable: "S3_SECRET_ACCESS_KEY",
          message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together",
        },
      ],
    );
    expect(posterStorageProblems({ DATA_DIR: ".", S3_ENDPOINT: "http://minio:9000" })).toEqual([
      { variable: "S3_BUCKET", message: "is needed when S3_ENDPOINT is set" },
    ]);
    expect(() => uploadStorageConfig("posters", { DATA_DIR: ".", S3_REGION: "eu-west-1" })).toThrow(
      /S3_BUCKET is needed when S3_REGION is set/,
    );
  });
});

describe("S3 storage (the real AWS SDK against a local S3-compatible stand-in)", () => {
  let s3: FakeS3;
  let storage: PosterStorage;

  /** The stand-in's bucket, with its access key. */
  const bucket = () => ({
    bucket: s3.bucket,
    region: "us-east-1",
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  });

  beforeAll(async () => {
    s3 = await startFakeS3();
    storage = createS3Storage(bucket());
  });
  afterAll(() => s3.close());

  it("puts, gets and deletes objects path-style, signed with the access key", async () => {
    await storage.put("abc-320.webp", bytes, "image/webp");
    const put = s3.requests.at(-1)!;
    expect(put).toMatchObject({ method: "PUT", key: "abc-320.webp" });
    expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKES3TEST\//);
    expect(s3.objects.get("abc-320.webp")?.contentType).toBe("image/webp");

    expect(await read(storage, "abc-320.webp")).toEqual({
      bytes: [1, 2, 3, 4, 5],
      contentType: "image/webp",
    });
    await storage.delete("abc-320.webp");
    expect(s3.objects.size).toBe(0);
    expect(await storage.get("abc-320.webp")).toBeNull();
  });

  it("keeps the objects of a private area under its prefix, out of the posters' names", async () => {
    const photos = createS3Storage({ ...bucket(), keyPrefix: "private/repair-photos/" });
    await photos.put("abc.webp", bytes, "image/webp");
    expect([...s3.objects.keys()]).toEqual(["private/repair-photos/abc.webp"]);
    expect(await storage.get("abc.webp")).toBeNull();
    expect(await read(photos, "abc.webp")).toEqual({
      bytes: [1, 2, 3, 4, 5],
      contentType: "image/webp",
    });
    await photos.delete("abc.webp");
    expect(s3.objects.size).toBe(0);
  });

  it("refuses keys that are not plain names before asking the bucket", async () => {
    const before = s3.requests.length;
    await expect(storage.put("../other-bucket/x.webp", bytes, "image/webp")).rejects.toThrow(
      /Not a valid storage key/,
    );
    await expect(storage.get("a/b.webp")).rejects.toThrow(/Not a valid storage key/);
    expect(s3.requests.length).toBe(before);
  });

  it("reports a bucket that refuses the credentials", async () => {
    const stranger = createS3Storage({
      bucket: s3.bucket,
      region: "us-east-1",
      endpoint: s3.endpoint,
      accessKeyId: "AKIASOMEONEELSE",
      secretAccessKey: "wrong",
      forcePathStyle: true,
    });
    await expect(stranger.put("abc-320.webp", bytes, "image/webp")).rejects.toThrow(/access key/i);
    expect(s3.objects.size).toBe(0);
  });
});
