import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getEnv } from "#app/lib/env.server.ts";

/**
 * Where uploaded files live (DESIGN §1 "Files"): a flat namespace of keys, so the local disk
 * and an S3-compatible bucket behave the same. Keys are chosen by the server, never by whoever
 * uploaded the file.
 */
export type StoredFile = { bytes: Uint8Array<ArrayBuffer>; contentType: string };

export type PosterStorage = {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the key; removing a key that is not there is not an error. */
  delete(key: string): Promise<void>;
};

/**
 * A plain file name with at most one extension: lowercase letters, digits and inner hyphens. No
 * slash, backslash, dot segment or leading dot can pass, so a key never leaves its directory
 * and never collides with the hidden temporary files of a write in progress.
 */
const KEY = /^[a-z0-9](?:[a-z0-9-]{0,126}[a-z0-9])?(?:\.[a-z0-9]{1,10})?$/;

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

function checkKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`Not a valid storage key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  avif: "image/avif",
  jpg: "image/jpeg",
  png: "image/png",
};

function contentTypeOf(key: string): string {
  const extension = key.includes(".") ? key.slice(key.lastIndexOf(".") + 1) : "";
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/**
 * Files in one directory. A write goes to a hidden temporary file that is flushed and then
 * renamed over the key, so a reader sees the whole file or none of it, even after a crash.
 * The content type follows from the key's extension (the disk keeps no metadata).
 */
export function createLocalStorage(dir: string): PosterStorage {
  const root = path.resolve(dir);
  const fileFor = (key: string) => {
    checkKey(key);
    const file = path.join(root, key);
    // Belt and braces: the pattern already rules this out.
    if (path.dirname(file) !== root) throw new Error(`Not a valid storage key: ${key}`);
    return file;
  };

  return {
    async put(key, bytes) {
      const file = fileFor(key);
      await mkdir(root, { recursive: true });
      const temporary = path.join(root, `.tmp-${randomBytes(12).toString("hex")}`);
      try {
        const handle = await open(temporary, "wx", 0o644);
        try {
          await handle.writeFile(bytes);
          await handle.datasync();
        } finally {
          await handle.close();
        }
        await rename(temporary, file);
      } catch (error) {
        await unlink(temporary).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      const file = fileFor(key);
      try {
        return { bytes: await readFile(file), contentType: contentTypeOf(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      const file = fileFor(key);
      await unlink(file).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    },
  };
}

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** For stores other than AWS (MinIO, Cloudflare R2, Backblaze B2...), e.g. https://minio:9000. */
  endpoint?: string;
  /** Both unset: the SDK's default credential chain (instance or task role, AWS_* variables). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** https://endpoint/bucket/key instead of https://bucket.endpoint/key. */
  forcePathStyle: boolean;
  /** Put before every key: an area of the bucket of its own ("private/repair-photos/"). */
  keyPrefix?: string;
};

/**
 * Any S3-compatible bucket; keys are object names at the bucket's root, or under `keyPrefix`.
 */
export function createS3Storage(options: S3StorageOptions): PosterStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Checksum headers only where S3 demands them: several S3-compatible stores refuse or
    // mishandle the newer default ones.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
    // A bucket that hangs must not hold a request (and its poster) for minutes.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 15_000 },
  });
  const Bucket = options.bucket;
  const prefix = options.keyPrefix ?? "";
  const objectKey = (key: string) => {
    checkKey(key);
    return `${prefix}${key}`;
  };

  return {
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
    },
    async get(key) {
      const Key = objectKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key }));
        if (!object.Body) return null;
        return {
          // A copy: the SDK's array may sit on a shared buffer, which a Response cannot send.
          bytes: new Uint8Array(await object.Body.transformToByteArray()),
          contentType: object.ContentType ?? contentTypeOf(key),
        };
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) {
          return null;
        }
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
  };
}

/** The settings poster storage reads, as the validated environment holds them. */
export type PosterStorageEnv = {
  DATA_DIR: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE?: boolean;
};

export type PosterStorageConfig =
  { kind: "local"; dir: string } | ({ kind: "s3" } & S3StorageOptions);

/** What is wrong with the S3 settings, for the start-up check (empty when nothing is). */
export function posterStorageProblems(
  env: PosterStorageEnv,
): { variable: keyof PosterStorageEnv; message: string }[] {
  const problems: { variable: keyof PosterStorageEnv; message: string }[] = [];
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    problems.push({
      variable: "S3_SECRET_ACCESS_KEY",
      message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together",
    });
  }
  if (!env.S3_BUCKET) {
    const stray = (
      [
        "S3_REGION",
        "S3_ENDPOINT",
        "S3_ACCESS_KEY_ID",
        "S3_SECRET_ACCESS_KEY",
        "S3_FORCE_PATH_STYLE",
      ] as const
    ).filter((variable) => env[variable] !== undefined);
    if (stray.length > 0) {
      problems.push({
        variable: "S3_BUCKET",
        message: `is needed when ${stray.join(", ")} ${stray.length === 1 ? "is" : "are"} set`,
      });
    }
  }
  return problems;
}

/**
 * What is kept: posters, which anyone may see (served at /uploads/posters), and repair intake
 * photos, which only staff may (served by a back-office route that checks the role). Photos
 * never share a name space with posters: on disk a directory of their own that no route serves
 * as files, in a bucket a prefix of their own that a bucket policy or CDN can keep private.
 */
export type StorageArea = "posters" | "repair-photos";

const AREAS: Record<StorageArea, { dir: string[]; keyPrefix?: string }> = {
  posters: { dir: ["uploads", "posters"] },
  "repair-photos": {
    dir: ["uploads", "private", "repair-photos"],
    keyPrefix: "private/repair-photos/",
  },
};

/**
 * Local disk under DATA_DIR unless S3_BUCKET names a bucket. Path-style addressing is the
 * default with a custom endpoint (what MinIO and most self-hosted stores expect).
 */
export function uploadStorageConfig(area: StorageArea, env: PosterStorageEnv): PosterStorageConfig {
  const problems = posterStorageProblems(env);
  if (problems.length > 0) {
    throw new Error(
      `Invalid poster storage settings: ${problems.map((p) => `${p.variable} ${p.message}`).join("; ")}`,
    );
  }
  const { dir, keyPrefix } = AREAS[area];
  if (!env.S3_BUCKET) {
    return { kind: "local", dir: path.resolve(env.DATA_DIR, ...dir) };
  }
  return {
    kind: "s3",
    bucket: env.S3_BUCKET,
    region: env.S3_REGION ?? "us-east-1",
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
    ...(keyPrefix ? { keyPrefix } : {}),
  };
}

export function createPosterStorage(config: PosterStorageConfig): PosterStorage {
  return config.kind === "local" ? createLocalStorage(config.dir) : createS3Storage(config);
}

const shared = new Map<StorageArea, PosterStorage>();

function areaStorage(area: StorageArea): PosterStorage {
  let storage = shared.get(area);
  if (!storage) {
    storage = createPosterStorage(uploadStorageConfig(area, getEnv()));
    shared.set(area, storage);
  }
  return storage;
}

/** The process's poster storage, chosen once from the environment. */
export function posterStorage(): PosterStorage {
  return areaStorage("posters");
}

/** The process's storage of repair intake photos: private, served only to staff. */
export function repairPhotoStorage(): PosterStorage {
  return areaStorage("repair-photos");
}
