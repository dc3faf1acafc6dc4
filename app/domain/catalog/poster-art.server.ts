import { LRUCache } from "lru-cache";
import sharp from "sharp";

/**
 * Draws a poster as SVG from a title and a palette chosen by the title's hash, so the demo
 * catalogue (and any title without an uploaded poster) has a distinct, stable cover without
 * downloading images.
 */
const PALETTES: [string, string, string][] = [
  ["#1b1f2e", "#7a1f2b", "#f5c451"],
  ["#0f3b3a", "#1f7a6d", "#f2e8cf"],
  ["#2b193d", "#6c3a8c", "#f7b267"],
  ["#102542", "#2f5d8a", "#f87060"],
  ["#3d1e15", "#9c4a1a", "#ffd6a5"],
  ["#1d3124", "#3f6d3a", "#e9f5db"],
  ["#2e2e3a", "#555870", "#ffcad4"],
  ["#411530", "#a12568", "#fec260"],
  ["#0b2027", "#40798c", "#cfd7c7"],
  ["#3a0f0f", "#8e1f1f", "#f4e285"],
];

function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 16777619);
  }
  return value >>> 0;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Greedy word wrap by character count; long words are cut with an ellipsis. */
export function wrapTitle(title: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const fitted = word.length > maxChars ? `${word.slice(0, maxChars - 1)}…` : word;
    if (!current) current = fitted;
    else if (current.length + 1 + fitted.length <= maxChars) current += ` ${fitted}`;
    else {
      lines.push(current);
      current = fitted;
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.replace(/.$/, "")}…`;
    return kept;
  }
  return lines;
}

export function posterSvg(input: {
  title: string;
  subtitle?: string | null;
  band?: string | null;
}) {
  const seed = hash(input.title);
  const [dark, mid, light] = PALETTES[seed % PALETTES.length]!;
  const angle = seed % 360;
  const circleX = 60 + (seed % 200);
  const circleY = 120 + ((seed >>> 8) % 160);
  const radius = 70 + ((seed >>> 16) % 80);
  const fontSize = input.title.length > 40 ? 26 : input.title.length > 18 ? 32 : 40;
  const maxChars = Math.floor(270 / (fontSize * 0.56));
  const lines = wrapTitle(input.title, maxChars, 5);
  const top = 300 - (lines.length - 1) * fontSize * 0.6;
  const text = lines
    .map(
      (line, index) =>
        `<text x="24" y="${Math.round(top + index * fontSize * 1.15)}" font-size="${fontSize}" font-weight="800">${escapeXml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="480" viewBox="0 0 320 480" role="img" aria-label="${escapeXml(input.title)}">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
<rect width="320" height="480" fill="url(#g)"/>
<circle cx="${circleX}" cy="${circleY}" r="${radius}" fill="${light}" opacity="0.18"/>
<rect x="24" y="40" width="64" height="6" fill="${light}"/>
<g fill="#ffffff" font-family="Georgia, 'Times New Roman', serif">${text}</g>
${input.subtitle ? `<text x="24" y="${Math.round(top + lines.length * fontSize * 1.15 + 10)}" font-size="18" fill="${light}" font-family="Helvetica, Arial, sans-serif">${escapeXml(input.subtitle)}</text>` : ""}
${input.band ? `<rect y="432" width="320" height="48" fill="#000000" opacity="0.45"/><text x="24" y="463" font-size="18" font-weight="700" fill="#ffffff" font-family="Helvetica, Arial, sans-serif" letter-spacing="2">${escapeXml(input.band.toUpperCase())}</text>` : ""}
</svg>`;
}

/**
 * Rendered WebP files, by width and drawing. The key is the drawing itself, so a title whose
 * text changes is drawn anew and nothing needs forgetting; a render still running is shared.
 * At most about 9 KB each (640 wide), so this holds at most about 18 MB.
 */
const rendered = new LRUCache<string, Promise<Uint8Array<ArrayBuffer>>>({ max: 2000 });

/**
 * The drawn poster as WebP, `width` pixels wide: rendered from the SVG by the image library
 * (off the event loop, in its own threads), at that size rather than scaled, so text stays sharp.
 * Needs a serif and a sans-serif font installed for the title's text (docs/posters.md).
 */
export function drawnPosterWebp(
  input: Parameters<typeof posterSvg>[0],
  width: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const svg = posterSvg(input);
  const key = `${width}:${svg}`;
  let image = rendered.get(key);
  if (!image) {
    image = sharp(Buffer.from(svg), { density: (72 * width) / 320 })
      .resize(width)
      .webp({ quality: 80 })
      .toBuffer()
      .then((buffer) => new Uint8Array(buffer));
    rendered.set(key, image);
    image.catch(() => rendered.delete(key));
  }
  return image;
}
