import { useState } from "react";
import type { AdultTitleCard } from "#app/domain/catalog/adult-titles.server.ts";
import { BACK_IN_STOCK_ANCHOR } from "#app/domain/alerts/anchor.ts";
import type { RegularTitleCard } from "#app/domain/catalog/regular-titles.server.ts";
import type { CartProduct } from "#app/lib/cart.ts";
import { adultCartProduct, regularCartProduct } from "#app/lib/cart-products.ts";
import { useCart } from "./cart-provider.tsx";
import { TitleDetailsDialog, type TitleDetails } from "./title-details-dialog.tsx";
import { TitleGrid, type GridTitle } from "./title-grid.tsx";

export type ResultTitle = GridTitle & {
  details: Omit<TitleDetails, "linkState">;
  product: CartProduct;
};

/**
 * What a list page sends of each regular title: only what its card, details dialog and cart line
 * show (the loader's data travels in every list page's HTML).
 */
export function listedRegularTitle(card: RegularTitleCard) {
  // The exact stock stays on the server: a card says only whether the title is in stock.
  const { qtyToList: _qtyToList, ...listed } = card;
  return listed;
}

/** As `listedRegularTitle`, for the adult catalogue. */
export function listedAdultTitle(card: AdultTitleCard) {
  const { adultSerialNo, title, disc, year, priceCents, production, description, poster, inStock } =
    card;
  return { adultSerialNo, title, disc, year, priceCents, production, description, poster, inStock };
}

/**
 * A listed title of either catalogue as its card, its details dialog and its cart line show it.
 * Only the regular catalogue has back-in-stock alerts.
 */
export function titleResult(
  title: ReturnType<typeof listedRegularTitle> | ReturnType<typeof listedAdultTitle>,
): ResultTitle {
  const adult = "adultSerialNo" in title;
  const key = adult ? title.adultSerialNo : title.regSerialNo;
  const href = adult ? `/adult-movies/${key}` : `/movies/${key}`;
  const alertHref = adult ? undefined : `${href}#${BACK_IN_STOCK_ANCHOR}`;
  const { poster, disc, priceCents, inStock } = title;
  return {
    alertHref,
    key,
    title: title.title,
    href,
    poster,
    disc,
    priceCents,
    inStock,
    details: {
      title: title.title,
      poster,
      priceCents,
      description: title.description,
      inStock,
      facts: [
        { label: "Year", value: adult ? title.year : title.releaseYear },
        { label: "Disc", value: disc },
        adult
          ? { label: "Production", value: title.production }
          : { label: "Genre", value: title.genres },
      ],
      href,
      alertHref,
    },
    product: adult ? adultCartProduct(title) : regularCartProduct(title),
  };
}

type Props = {
  titles: ResultTitle[];
  /** Handed to the title page so its back button returns to this list page. */
  linkState: unknown;
  emptyText: string;
};

/** A grid of titles with Add to Cart and a More Details dialog per title. */
export function TitleResults({ titles, linkState, emptyText }: Props) {
  const cart = useCart();
  const [detailsKey, setDetailsKey] = useState<number | null>(null);
  const selected = titles.find((title) => title.key === detailsKey) ?? null;

  if (titles.length === 0) {
    return <p className="py-10 text-center text-muted-foreground">{emptyText}</p>;
  }
  return (
    <>
      <TitleGrid
        titles={titles}
        linkState={linkState}
        onAddToCart={(key) => {
          const title = titles.find((item) => item.key === key);
          if (title) cart.add(title.product);
        }}
        onDetails={setDetailsKey}
      />
      <TitleDetailsDialog
        details={selected ? { ...selected.details, linkState } : null}
        emptyDescription="No description."
        onClose={() => setDetailsKey(null)}
        onAddToCart={() => selected && cart.add(selected.product)}
      />
    </>
  );
}
