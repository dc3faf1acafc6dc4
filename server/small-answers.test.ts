import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPRESSION_THRESHOLD, sizeSmallAnswers } from "./small-answers.ts";

// Streamed answers as React Router writes them: chunk by chunk with res.write, then res.end().
const app = express();
app.use(compression({ threshold: COMPRESSION_THRESHOLD }));
app.use(sizeSmallAnswers);
app.get("/stream", (req, res) => {
  const chunks = String(req.query.chunks ?? "")
    .split(",")
    .filter(Boolean)
    .map(Number);
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  let i = 0;
  const next = () => {
    if (i === chunks.length) return void res.end();
    res.write("é".repeat(chunks[i++]! / 2));
    setImmediate(next);
  };
  next();
});
app.get("/ends-with-text", (_req, res) => {
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.write("first ");
  res.end("last", "utf8");
});
app.get("/sent", (_req, res) => {
  res.type("text/plain").send("x".repeat(5000));
});

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(pathname: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers: { "Accept-Encoding": "gzip" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          const gzipped = response.headers["content-encoding"] === "gzip";
          resolve({
            headers: response.headers,
            text: (gzipped ? zlib.gunzipSync(raw) : raw).toString(),
          });
        });
      })
      .on("error", reject);
  });
}

describe("small streamed answers", () => {
  it("sends an answer that fits in one small chunk as it is, with its length", async () => {
    const { headers, text } = await get("/stream?chunks=200");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers["content-length"]).toBe("200");
    expect(text).toBe("é".repeat(100));
  });

  it("still compresses a small first chunk followed by more", async () => {
    const { headers, text } = await get("/stream?chunks=200,4000,4000");
    expect(headers["content-encoding"]).toBe("gzip");
    expect(text).toBe("é".repeat(4100));
  });

  it("compresses an answer whose first chunk is past the threshold", async () => {
    const { headers, text } = await get("/stream?chunks=2000");
    expect(headers["content-encoding"]).toBe("gzip");
    expect(text).toBe("é".repeat(1000));
  });

  it("joins a held chunk with the text given to end", async () => {
    const { headers, text } = await get("/ends-with-text");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(text).toBe("first last");
  });

  it("leaves answers sent whole (with a length) to compression as before", async () => {
    const { headers, text } = await get("/sent");
    expect(headers["content-encoding"]).toBe("gzip");
    expect(text).toBe("x".repeat(5000));
  });
});
