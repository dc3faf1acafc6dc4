import {
  isAdultPosterId,
  UPLOADED_POSTER_DEFAULT_WIDTH,
  UPLOADED_POSTER_WIDTHS,
  uploadedPosterId,
  uploadedPosterSrc,
  type UploadedPosterWidth,
} from "#app/lib/uploaded-posters.ts";

export type PosterKind = "regular" | "adult" | "coming-soon";

export const DEFAULT_POSTER = "/images/default-poster.svg";

/** Posters are 2:3; every <img> carries these so nothing shifts while they load. */
export const POSTER_WIDTH = 320;
export const POSTER_HEIGHT = 480;

/**
 * A drawn poster is served as WebP at the widths of an uploaded one, so that it is an image the
 * browser decodes off the main thread; an SVG image is a document of its own, parsed, laid out
 * and painted on the page's main thread (decision 014). `{id}.svg` is still served, for the
 * addresses already out there (a cart kept in a browser, a link).
 */
export function drawnPosterUrl(
  kind: PosterKind,
  id: number,
  width: UploadedPosterWidth = UPLOADED_POSTER_DEFAULT_WIDTH,
): string {
  return `/posters/${kind}/${id}-${width}.webp`;
}

const SIZED_POSTER = new RegExp(
  `^(/(?:uploads/)?posters/[\\w/-]+)-(?:${UPLOADED_POSTER_WIDTHS.join("|")})\\.webp$`,
);

/**
 * The srcset of one of the shop's own posters, drawn or uploaded, from the address of any of its
 * widths (cards carry just the address); undefined for anything else, such as an imported image.
 */
export function posterSrcSet(src: string): string | undefined {
  const base = SIZED_POSTER.exec(src)?.[1];
  return (
    base && UPLOADED_POSTER_WIDTHS.map((width) => `${base}-${width}.webp ${width}w`).join(", ")
  );
}

/**
 * An uploaded poster when there is one, otherwise the one drawn from the title. `poster_url`
 * holds `upload:{id}` for an uploaded poster, an absolute address for one imported by CSV, or
 * nothing. An uploaded poster whose audience does not match the title's catalogue (an adult id
 * on a regular title or the other way round), or a malformed `upload:` value, falls back to the
 * drawn poster, so an adult image is never served outside the age gate.
 */
export function posterSrc(kind: PosterKind, id: number, posterUrl: string | null): string {
  const drawn = drawnPosterUrl(kind, id);
  if (posterUrl?.startsWith("upload:")) {
    const uploaded = uploadedPosterId(posterUrl);
    if (!uploaded || isAdultPosterId(uploaded) !== (kind === "adult")) return drawn;
    return uploadedPosterSrc(posterUrl)!;
  }
  return posterUrl || drawn;
}
