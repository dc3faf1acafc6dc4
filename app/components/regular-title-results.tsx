import { useState } from "react";
import type { RegularTitleCard } from "#app/domain/catalog/regular-titles.server.ts";
import { regularCartProduct } from "#app/lib/cart-products.ts";
import { useCart } from "./cart-provider.tsx";
import { TitleDetailsDialog } from "./title-details-dialog.tsx";
import { TitleGrid } from "./title-grid.tsx";

type Props = {
  titles: RegularTitleCard[];
  /** Handed to the title page so its back button returns to this list page. */
  linkState: unknown;
  emptyText: string;
};

/** A grid of regular titles with Add to Cart and a More Details dialog per title. */
export function RegularTitleResults({ titles, linkState, emptyText }: Props) {
  const cart = useCart();
  const [detailsKey, setDetailsKey] = useState<number | null>(null);
  const details = titles.find((title) => title.regSerialNo === detailsKey) ?? null;

  if (titles.length === 0) {
    return <p className="py-10 text-center text-muted-foreground">{emptyText}</p>;
  }
  return (
    <>
      <TitleGrid
        titles={titles.map((title) => ({
          key: title.regSerialNo,
          title: title.title,
          href: `/movies/${title.regSerialNo}`,
          poster: title.poster,
          disc: title.disc,
          priceCents: title.priceCents,
          inStock: title.inStock,
        }))}
        linkState={linkState}
        onAddToCart={(key) => {
          const title = titles.find((item) => item.regSerialNo === key);
          if (title) cart.add(regularCartProduct(title));
        }}
        onDetails={setDetailsKey}
      />
      <TitleDetailsDialog
        details={
          details
            ? {
                title: details.title,
                poster: details.poster,
                priceCents: details.priceCents,
                description: details.description,
                facts: [
                  { label: "Year", value: details.releaseYear },
                  { label: "Disc", value: details.disc },
                  { label: "Genre", value: details.genres },
                ],
                href: `/movies/${details.regSerialNo}`,
                linkState,
              }
            : null
        }
        emptyDescription="No description."
        onClose={() => setDetailsKey(null)}
        onAddToCart={() => details && cart.add(regularCartProduct(details))}
      />
    </>
  );
}
