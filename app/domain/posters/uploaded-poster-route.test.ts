import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { confirmAge } from "#app/domain/age-gate/age-gate.server.ts";
import { loader } from "#app/routes/uploads.posters.$file.ts";
import { processPosterUpload } from "./upload.server.ts";

let regular: string;
let adult: string;
let ageCookie: string;

beforeAll(async () => {
  // The route reads storage from the environment: local disk under the test run's DATA_DIR.
  const bytes = await sharp({
    create: { width: 400, height: 600, channels: 3, background: "#884422" },
  })
    .jpeg()
    .toBuffer();
  const first = await processPosterUpload(bytes, "poster.jpg", { kind: "regular" });
  const second = await processPosterUpload(bytes, "poster.jpg", { kind: "adult" });
  if (!first.ok || !second.ok) throw new Error("upload refused");
  regular = first.id;
  adult = second.id;
  const confirmed = await confirmAge(new Request("http://shop.test/age-check"), "/adult-movies");
  ageCookie = confirmed.headers.get("Set-Cookie")!.split(";")[0]!;
});

function get(file: string, cookie?: string) {
  const request = new Request(`http://shop.test/uploads/posters/${encodeURIComponent(file)}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  // Only what the loader reads; the rest of React Router's arguments do not matter here.
  return loader({ params: { file }, request } as Parameters<typeof loader>[0]);
}

function statusOf(result: Awaited<ReturnType<typeof loader>>): number {
  return result instanceof Response ? result.status : (result.init?.status ?? 200);
}

describe("GET /uploads/posters/:file", () => {
  it("serves a stored width as WebP, cached for a year", async () => {
    const response = await get(`${regular}-640.webp`);
    if (!(response instanceof Response)) throw new Error("expected a response");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const body = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("Content-Length")).toBe(String(body.byteLength));
    const metadata = await sharp(body).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["webp", 400, 600]);
  });

  it.each([
    "../../../etc/passwd",
    "..%2f..%2fetc%2fpasswd",
    "%2e%2e",
    "poster.jpg",
    "abc-320.webp",
    "0123456789abcdef0123456789abcdef-999.webp",
    "0123456789abcdef0123456789abcdef-320.png",
    "0123456789ABCDEF0123456789ABCDEF-320.webp",
    "0123456789abcdef0123456789abcdef-320.webp\u0000.png",
    "",
  ])("answers 404 to the name %j", async (file) => {
    expect(statusOf(await get(file))).toBe(404);
  });

  it("answers 404 for a well-formed name that is not stored", async () => {
    expect(statusOf(await get("0123456789abcdef0123456789abcdef-320.webp"))).toBe(404);
  });

  it("serves adult posters only behind the age gate, never to shared caches", async () => {
    expect(statusOf(await get(`${adult}-320.webp`))).toBe(403);
    const response = await get(`${adult}-320.webp`, ageCookie);
    if (!(response instanceof Response)) throw new Error("expected a response");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=86400");
  });
});
