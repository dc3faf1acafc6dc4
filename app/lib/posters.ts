export type PosterKind = "regular" | "adult" | "coming-soon";

export const DEFAULT_POSTER = "/images/default-poster.svg";

/** Posters are 2:3; every <img> carries these so nothing shifts while they load. */
export const POSTER_WIDTH = 320;
export const POSTER_HEIGHT = 480;

/** An uploaded poster when there is one, otherwise the one drawn from the title. */
export function posterSrc(kind: PosterKind, id: number, posterUrl: string | null): string {
  return posterUrl || `/posters/${kind}/${id}.svg`;
}
