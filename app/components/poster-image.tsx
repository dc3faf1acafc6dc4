import { cn } from "#app/lib/cn.ts";
import { DEFAULT_POSTER, POSTER_HEIGHT, POSTER_WIDTH, posterSrcSet } from "#app/lib/posters.ts";

/**
 * The width a poster takes in the usual grid (2 columns on phones up to 6 on wide screens).
 * Lazy images ask the browser to use their laid-out width instead (`auto`) where it can.
 */
const GRID_SIZES =
  "(min-width: 1024px) 200px, (min-width: 768px) 25vw, (min-width: 640px) 33vw, 50vw";

type PosterImageProps = {
  src: string;
  alt: string;
  className?: string;
  /** Posters in the first screenful load at once; the rest when they are scrolled near. */
  loading?: "eager" | "lazy";
  /** The page's largest image (its LCP element): fetched before the other images. */
  fetchPriority?: "high";
  /** Defaults to the widths of the shop's own poster (drawn or uploaded) when `src` is one. */
  srcSet?: string;
  /** How wide the poster is shown, for choosing from `srcSet`. */
  sizes?: string;
};

/**
 * A 2:3 poster that reserves its space before loading (width and height, and the `poster` rule
 * in app.css) and falls back to the default one.
 */
export function PosterImage({
  src,
  alt,
  className,
  loading = "lazy",
  fetchPriority,
  srcSet,
  sizes,
}: PosterImageProps) {
  const candidates = srcSet ?? posterSrcSet(src);
  return (
    <img
      src={src}
      srcSet={candidates}
      sizes={
        candidates
          ? (sizes ?? (loading === "lazy" ? `auto, ${GRID_SIZES}` : GRID_SIZES))
          : undefined
      }
      alt={alt}
      width={POSTER_WIDTH}
      height={POSTER_HEIGHT}
      loading={loading}
      decoding="async"
      fetchPriority={fetchPriority}
      onError={(event) => {
        const image = event.currentTarget;
        if (image.src.endsWith(DEFAULT_POSTER)) return;
        // With a srcset the browser ignores src, so drop the candidates first.
        image.removeAttribute("srcset");
        image.removeAttribute("sizes");
        image.src = DEFAULT_POSTER;
      }}
      className={cn("poster", className)}
    />
  );
}
