import { Link } from "react-router";
import { productLabel } from "#app/lib/cart.ts";
import { formatUsd } from "#app/lib/money.ts";
import { PosterImage } from "./poster-image.tsx";
import { Button } from "./ui/button.tsx";

export type GridTitle = {
  key: number;
  title: string;
  href: string;
  poster: string;
  disc: string | null;
  priceCents: number;
  inStock: boolean;
};

type Props = {
  titles: GridTitle[];
  /** Navigation state handed to the title page so its back button returns here. */
  linkState: unknown;
  onAddToCart: (key: number) => void;
  onDetails: (key: number) => void;
  /** The first few posters are above the fold: load them first. */
  eagerCount?: number;
};

export function TitleGrid({ titles, linkState, onAddToCart, onDetails, eagerCount = 6 }: Props) {
  return (
    <ul className="grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6">
      {titles.map((title, index) => (
        <li key={title.key} className="flex flex-col">
          <Link
            to={title.href}
            state={linkState}
            className="group rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          >
            <PosterImage src={title.poster} alt="" priority={index < eagerCount} />
            <h2 className="mt-2 line-clamp-2 text-sm font-semibold group-hover:underline">
              {title.title}
            </h2>
          </Link>
          <p className="mt-1 text-sm text-muted-foreground">{title.disc ?? "Disc"}</p>
          <p className="text-sm font-semibold">{formatUsd(title.priceCents)}</p>
          <div className="mt-auto flex flex-col gap-1.5 pt-2">
            <Button
              size="sm"
              disabled={!title.inStock}
              onClick={() => onAddToCart(title.key)}
              aria-label={`${title.inStock ? "Add to Cart" : "Out of stock"}: ${productLabel(title.title, title.disc)}`}
            >
              {title.inStock ? "Add to Cart" : "Out of stock"}
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onDetails(title.key)}
              aria-label={`More Details: ${productLabel(title.title, title.disc)}`}
            >
              More Details
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
