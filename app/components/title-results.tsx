import { useState } from "react";
import type { AdultTitleCard } from "#app/domain/catalog/adult-titles.server.ts";
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

export function regularResult(title: RegularTitleCard): ResultTitle {
  const href = `/movies/${title.regSerialNo}`;
  return {
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
    },
    product: regularCartProduct(title),
  };
}

export function adultResult(title: AdultTitleCard): ResultTitle {
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
