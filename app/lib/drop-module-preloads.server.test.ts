import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { dropModulePreloads } from "./drop-module-preloads.server.ts";

function through(chunks: (string | Buffer)[]) {
  return text(Readable.from(chunks).pipe(dropModulePreloads()));
}

const HEAD =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/>' +
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n0"/>' +
  '<link rel="modulepreload" href="/assets/root-B.js"/>' +
  '<link rel="stylesheet" href="/assets/app-C.css"/>' +
  '<link rel="preload" as="image" href="/posters/regular/1.svg"/></head>';
const BODY =
  "<body><p>Write &lt;link rel=&quot;modulepreload&quot;&gt; in a review.</p>" +
  '<script type="module" async="">import "/assets/root-B.js";</script></body></html>';

describe("dropModulePreloads", () => {
  it("takes the module preloads out of the head and keeps everything else", async () => {
    const html = await through([HEAD, BODY]);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<link rel="stylesheet" href="/assets/app-C.css"/>');
    expect(html).toContain('<link rel="preload" as="image" href="/posters/regular/1.svg"/>');
    expect(html.endsWith(BODY)).toBe(true);
  });

  it("finds a tag split between two chunks", async () => {
    const cut = HEAD.indexOf("root-B");
    const html = await through([HEAD.slice(0, cut), HEAD.slice(cut), BODY]);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain("app-C.css");
  });

  it("keeps a character whose bytes arrive in two chunks whole, in the head and the body", async () => {
    const page = HEAD.replace("</head>", "<title>Amélie — Reel &amp; Repair</title></head>") + BODY;
    const bytes = Buffer.from(page.replace("in a review", "in a review of Amélie"));
    const inHead = bytes.indexOf(Buffer.from("é")) + 1;
    const inBody = bytes.lastIndexOf(Buffer.from("é")) + 1;
    const html = await through([
      bytes.subarray(0, inHead),
      bytes.subarray(inHead, inBody),
      bytes.subarray(inBody),
    ]);
    expect(html).toContain("<title>Amélie — Reel &amp; Repair</title>");
    expect(html).toContain("in a review of Amélie");
    expect(html).not.toContain("\uFFFD");
  });

  it("leaves the body alone, even where it quotes such a tag", async () => {
    const body = '<body><link rel="modulepreload" href="/late.js"/></body>';
    const html = await through([HEAD, body]);
    expect(html.endsWith(body)).toBe(true);
  });

  it("passes on a document without a head unchanged", async () => {
    const fragment = '<link rel="modulepreload" href="/x.js"/><p>no head here</p>';
    expect(await through([fragment])).toBe(fragment);
  });
});
