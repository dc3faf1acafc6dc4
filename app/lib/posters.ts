import {
  isAdultPosterId,
  uploadedPosterId,
  uploadedPosterImage,
} from "#app/lib/uploaded-posters.ts";

export type PosterKind = "regular" | "adult" | "coming-soon";

export const DEFAULT_POSTER = "/images/default-poster.svg";

/** Posters are 2:3; every <img> carries these so nothing shifts while they load. */
export const POSTER_WIDTH = 320;
export const POSTER_HEIGHT = 480;

/**
 * An uploaded poster when there is one, otherwise the one drawn from the title. `poster_url`
 * holds `upload:{id}` for an uploaded poster, an absolute address for one imported by CSV, or
 * nothing. An uploaded poster whose audience does not match the title's catalogue (an adult id
 * on a regular title or the other way round), or a malformed `upload:` value, falls back to the
 * drawn poster, so an adult image is never served outside the age gate.
 */
export function posterSrc(kind: PosterKind, id: number, posterUrl: string | null): string {
  const drawn = `/posters/${kind}/${id}.svg`;
  if (posterUrl?.startsWith("upload:")) {
    const uploaded = uploadedPosterId(posterUrl);
    if (!uploaded || isAdultPosterId(uploaded) !== (kind === "adult")) return drawn;
    return uploadedPosterImage(posterUrl)!.src;
  }
  return posterUrl || drawn;
}
