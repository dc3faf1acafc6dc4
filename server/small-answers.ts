import type { RequestHandler } from "express";

/** compression()'s own default: smaller answers are not worth a zlib stream. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * compression() decides whether to compress at the first write, when a streamed answer has no
 * length yet, so it deflated every answer React Router streams, down to the 150-byte answer of a
 * data request that redirects: a new zlib stream and a flush each time (about a tenth of the
 * server's time on the checkout path). Installed after compression(), this holds back a first
 * chunk smaller than the threshold until the next chunk or the end. An answer that ends within
 * that chunk goes out as it is, with its length; anything longer is compressed as before, only
 * one chunk later.
 */
export const sizeSmallAnswers: RequestHandler = (_req, res, next) => {
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => typeof res;
  let held: Buffer | null = null;
  let decided = false;

  const release = () => {
    const chunk = held;
    held = null;
    if (chunk) write(chunk);
  };

  res.write = function (chunk: unknown, ...rest: unknown[]) {
    if (!decided) {
      decided = true;
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      const plain = rest.length === 0 && bytes instanceof Uint8Array && !res.headersSent;
      if (plain && bytes.byteLength < COMPRESSION_THRESHOLD) {
        held = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return true;
      }
    }
    release();
    return write(chunk, ...rest);
  } as typeof res.write;

  res.end = function (chunk?: unknown, ...rest: unknown[]) {
    if (held) {
      const encoding = typeof rest[0] === "string" ? (rest[0] as BufferEncoding) : undefined;
      const tail =
        typeof chunk === "string"
          ? Buffer.from(chunk, encoding)
          : chunk instanceof Uint8Array
            ? chunk
            : null;
      if (chunk === undefined || typeof chunk === "function" || tail) {
        const whole = tail ? Buffer.concat([held, tail]) : held;
        held = null;
        // The whole answer is known: its length goes in the header (compression() drops it if
        // it compresses after all), instead of a chunked body.
        if (!res.headersSent && !res.hasHeader("Content-Length")) {
          res.setHeader("Content-Length", whole.byteLength);
        }
        const callback = typeof chunk === "function" ? [chunk] : rest.filter(isFunction);
        return end(whole, ...callback);
      }
      release();
    }
    return end(chunk, ...rest);
  } as typeof res.end;

  next();
};

function isFunction(value: unknown): value is () => void {
  return typeof value === "function";
}
