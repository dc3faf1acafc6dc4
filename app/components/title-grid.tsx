import { useNavigate } from "react-router";
import { productLabel } from "#app/lib/cart.ts";
import { formatUsd } from "#app/lib/money.ts";
import { PosterImage } from "./poster-image.tsx";
import { preloadTitleDetails } from "./title-details-dialog.tsx";
import { Button } from "./ui/button.tsx";

export type GridTitle = {
  key: number;
  title: string;
  href: string;
  poster: string;
  disc: string | null;
  priceCents: number;
  inStock: boolean;
  /** Where a shopper asks to be told when it is back (regular titles only). */
  alertHref?: string;
};

type Props = {
  titles: GridTitle[];
  /** Navigation state handed to the title page so its back button returns here. */
  linkState: unknown;
  onAddToCart: (key: number) => void;
  onDetails: (key: number) => void;
  /** The first row of posters is above the fold: load it at once, the first poster first. */
  eagerCount?: number;
};

/** Each card is styled by the `title-card` rule in app.css, which keeps the markup short. */
export function TitleGrid({ titles, linkState, onAddToCart, onDetails, eagerCount = 6 }: Props) {
  const navigate = useNavigate();
  // A plain link per card, followed in the page on an ordinary click (a new tab or window is the
  // browser's): a router `<Link>` for each of a page's 40 cards cost about a tenth of rendering
  // a list page the page cache has not kept (210–240 → 250–270 pages/s).
  const follow = (href: string) => (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    void navigate(href, { state: linkState });
  };
  return (
    <ul className="grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6">
      {titles.map((title, index) => (
        <li
          key={title.key}
          className={index < eagerCount ? "title-card" : "title-card later-on-page"}
        >
          <a href={title.href} onClick={follow(title.href)}>
            <PosterImage
              src={title.poster}
              alt=""
              loading={index < eagerCount ? "eager" : "lazy"}
              fetchPriority={index === 0 ? "high" : undefined}
            />
            <h2>{title.title}</h2>
          </a>
          <p>{title.disc ?? "Disc"}</p>
          <p>{formatUsd(title.priceCents)}</p>
          <div>
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
              onPointerEnter={preloadTitleDetails}
              onFocus={preloadTitleDetails}
              onClick={() => onDetails(title.key)}
              aria-label={`More Details: ${productLabel(title.title, title.disc)}`}
            >
              More Details
            </Button>
          </div>
          {!title.inStock && title.alertHref ? (
            <a
              href={title.alertHref}
              onClick={follow(title.alertHref)}
              // 24 px tall at least: a target a finger can hit (WCAG 2.2's target size).
              className="inline-flex min-h-6 items-center self-start text-sm font-medium text-primary underline"
              aria-label={`Email me when it's back: ${productLabel(title.title, title.disc)}`}
            >
              Email me when it&apos;s back
            </a>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
