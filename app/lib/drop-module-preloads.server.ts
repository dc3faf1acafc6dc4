import { Transform } from "node:stream";

const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
const HEAD_END = Buffer.from("</head>");
/** A page whose head never ends this far in is passed on unchanged. */
const MAX_HEAD_BYTES = 256 * 1024;

/**
 * Removes the `<link rel="modulepreload">` tags React Router's `<Scripts>` puts in a rendered
 * page's head (React hoists them there). With them, Chrome fetches and compiles the page's
 * JavaScript ahead of the stylesheet and holds the first paint until it has run — 1.2 s into
 * the page on a phone-class Lighthouse run, against 0.15 s without (docs/decisions/005).
 * Without them the module script at the end of the body still loads the same files, after the
 * page has been drawn: the text and images come first and the page becomes interactive a few
 * round trips later.
 *
 * The head is held back, as bytes, until `</head>` has arrived (React writes it in one piece
 * with the shell), so neither a tag nor a character split between two chunks is broken; the
 * body streams through as is.
 */
export function dropModulePreloads() {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (head === null) return callback(null, chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEAD_END);
      if (end === -1) {
        if (head.length <= MAX_HEAD_BYTES) return callback();
        const whole = head;
        head = null;
        return callback(null, whole);
      }
      // `</head>` is ASCII, so the bytes before it end on a whole character.
      const rewritten = head.subarray(0, end).toString().replace(MODULE_PRELOAD, "");
      const rest = head.subarray(end);
      head = null;
      callback(null, Buffer.concat([Buffer.from(rewritten), rest]));
    },
    flush(callback) {
      callback(null, head?.length ? head : undefined);
    },
  });
}
