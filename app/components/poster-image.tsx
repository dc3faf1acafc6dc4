import { cn } from "#app/lib/cn.ts";
import { DEFAULT_POSTER, POSTER_HEIGHT, POSTER_WIDTH } from "#app/lib/posters.ts";

type PosterImageProps = {
  src: string;
  alt: string;
  className?: string;
  priority?: boolean;
};

/** A 2:3 poster that reserves its space before loading and falls back to the default one. */
export function PosterImage({ src, alt, className, priority = false }: PosterImageProps) {
  return (
    <img
      src={src}
      alt={alt}
      width={POSTER_WIDTH}
      height={POSTER_HEIGHT}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : "auto"}
      onError={(event) => {
        const image = event.currentTarget;
        if (!image.src.endsWith(DEFAULT_POSTER)) image.src = DEFAULT_POSTER;
      }}
      className={cn("aspect-[2/3] h-auto w-full rounded-md bg-muted object-cover", className)}
    />
  );
}
