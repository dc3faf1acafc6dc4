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

export function regularResult(title: ReturnType<typeof listedRegularTitle>): ResultTitle {
  const href = `/movies/${title.regSerialNo}`;
  const alertHref = `${href}#${BACK_IN_STOCK_ANCHOR}`;
  return {
    alertHref,
    key: title.regSerialNo,
    title: title.title,
    href,
    poster: title.poster,
    disc: title.disc,
    priceCents: title.priceCents,
    inStock: title.inStock,
    details: {
      title: title.title,
      poster: title.poster,
      priceCents: title.priceCents,
      description: title.description,
      inStock: title.inStock,
      facts: [
        { label: "Year", value: title.releaseYear },
        { label: "Disc", value: title.disc },
        { label: "Genre", value: title.genres },
      ],
      href,
      alertHref,
    },
    product: regularCartProduct(title),
  };
}

export function adultResult(title: ReturnType<typeof listedAdultTitle>): ResultTitle {
  const href = `/adult-movies/${title.adultSerialNo}`;
  return {
    key: title.adultSerialNo,
    title: title.title,
    href,
    poster: title.poster,
    disc: title.disc,
    priceCents: title.priceCents,
    inStock: title.inStock,
    details: {
      title: title.title,
      poster: title.poster,
      priceCents: title.priceCents,
      description: title.description,
      inStock: title.inStock,
      facts: [
        { label: "Year", value: title.year },
        { label: "Disc", value: title.disc },
        { label: "Production", value: title.production },
      ],
      href,
    },
    product: adultCartProduct(title),
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
