import { data } from "react-router";
import { useCart } from "#app/components/cart-provider.tsx";
import { AlertSignup } from "#app/components/alert-signup.tsx";
import { TitleDetail, TitleNotFound } from "#app/components/title-detail.tsx";
import { getDb } from "#app/db/client.server.ts";
import {
  getRegularTitle,
  otherEditions,
  relatedRegularTitles,
} from "#app/domain/catalog/regular-titles.server.ts";
import { regularCartProduct } from "#app/lib/cart-products.ts";
import { publicUrl } from "#app/lib/env.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { positiveInt, publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta, SHOP } from "#app/lib/site.ts";
import type { Route } from "./+types/movies.$regSerialNo";

const BACK_LABEL = "← Back to Regular Titles";

export async function loader({ params }: Route.LoaderArgs) {
  const serial = positiveInt(params.regSerialNo);
  const db = getDb();
  const title = serial ? await getRegularTitle(db, serial) : undefined;
  if (!title) return data({ title: null, editions: [], related: [], origin: "" }, { status: 404 });
  const [editions, related] = await Promise.all([
    otherEditions(db, title.regSerialNo),
    relatedRegularTitles(db, title),
  ]);
  // Only what the page shows (and its meta tags): the data travels in the page's HTML.
  const { type: _type, ...shown } = title;
  return {
    title: shown,
    editions,
    related: related.map(({ regSerialNo, title, poster, disc, priceCents }) => ({
      regSerialNo,
      title,
      poster,
      disc,
      priceCents,
    })),
    // Absolute addresses come from PUBLIC_URL, never from the request's Host header.
    origin: publicUrl(),
  };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export const meta: Route.MetaFunction = ({ loaderData: loaded }) => {
  const title = loaded?.title;
  if (!title) return pageMeta("Movie not found", "This title is not in our catalogue.");
  const summary = [
    title.releaseYear,
    title.disc,
    title.director ? `directed by ${title.director}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const url = `${loaded.origin}/movies/${title.regSerialNo}`;
  return [
    ...pageMeta(
      `${title.title} (${title.disc})`,
      `${title.title} (${summary}). ${title.description ?? ""}`.trim().slice(0, 300),
      [
        { property: "og:type", content: "product" },
        { property: "og:image", content: `${loaded.origin}${title.poster}` },
      ],
    ),
    { tagName: "link", rel: "canonical", href: url },
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Product",
        name: `${title.title} (${title.disc})`,
        sku: title.productId,
        image: `${loaded.origin}${title.poster}`,
        description: title.description ?? undefined,
        offers: {
          "@type": "Offer",
          url,
          priceCurrency: "USD",
          price: (title.priceCents / 100).toFixed(2),
          availability: title.inStock
            ? "https://schema.org/InStock"
            : "https://schema.org/BackOrder",
          seller: { "@type": "Organization", name: SHOP.name },
        },
      },
    },
  ];
};

export default function RegularTitlePage({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const { title, editions, related } = loaderData;
  if (!title) return <TitleNotFound listPath="/movies" backLabel={BACK_LABEL} />;
  return (
    <TitleDetail
      title={title.title}
      poster={title.poster}
      quantity={title.qtyToList}
      price={formatUsd(title.priceCents)}
      facts={[
        { label: "Year", value: title.releaseYear },
        { label: "Disc", value: title.disc },
        { label: "Price", value: formatUsd(title.priceCents) },
        { label: "Genre", value: title.genres },
        { label: "Director", value: title.director },
        { label: "Cast", value: title.cast },
      ]}
      description={title.description}
      whenSoldOut={<AlertSignup kind="restock" id={title.regSerialNo} title={title.title} />}
      listPath="/movies"
      backLabel={BACK_LABEL}
      otherEditions={editions.map((edition) => ({
        href: `/movies/${edition.regSerialNo}`,
        disc: edition.disc,
        price: formatUsd(edition.priceCents),
      }))}
      related={related.map((film) => ({
        href: `/movies/${film.regSerialNo}`,
        title: film.title,
        poster: film.poster,
        detail: `${film.disc} · ${formatUsd(film.priceCents)}`,
      }))}
      onAddToCart={() => cart.add(regularCartProduct(title))}
    />
  );
}
