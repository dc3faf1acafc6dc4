import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/**
 * Text files worth compressing, and WebAssembly (the counter's barcode reader: a third of its size);
 * images such as PNG or WebP are compressed already.
 */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|html|json|txt|xml|webmanifest|map|wasm)$/;
/** Below this, a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`, level 9) copy next to every text
 * file of the client build, once at build time, so the server sends the smallest copy the
 * browser accepts without compressing on each request (on the fly it compresses at a low
 * quality, to stay fast). A copy that would not be smaller is not written.
 */
export function precompressDirectory(directory: string): { files: number; saved: number } {
  let files = 0;
  let saved = 0;
  for (const entry of fs.readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = fs.readFileSync(file);
    if (content.length < MIN_BYTES) continue;
    const copies = [
      {
        suffix: ".br",
        bytes: zlib.brotliCompressSync(content, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
      },
      { suffix: ".gz", bytes: zlib.gzipSync(content, { level: 9 }) },
    ];
    for (const copy of copies) {
      if (copy.bytes.length >= content.length) continue;
      fs.writeFileSync(file + copy.suffix, copy.bytes);
    }
    files++;
    saved += content.length - copies[0]!.bytes.length;
  }
  return { files, saved };
}
