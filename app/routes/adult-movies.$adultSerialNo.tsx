import { data } from "react-router";
import { useCart } from "#app/components/cart-provider.tsx";
import { TitleDetail, TitleNotFound } from "#app/components/title-detail.tsx";
import { getDb } from "#app/db/client.server.ts";
import { ageGatedPageHeaders, requireAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { getAdultTitle } from "#app/domain/catalog/adult-titles.server.ts";
import { adultCartProduct } from "#app/lib/cart-products.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/adult-movies.$adultSerialNo";

const BACK_LABEL = "← Back to Adult Titles";

export async function loader({ params, request }: Route.LoaderArgs) {
  await requireAgeVerified(request);
  const serial = positiveInt(params.adultSerialNo);
  const title = serial ? await getAdultTitle(getDb(), serial) : undefined;
  if (!title) return data({ title: null }, { status: 404 });
  return { title };
}

export const headers: Route.HeadersFunction = () => ageGatedPageHeaders();

export const meta: Route.MetaFunction = ({ loaderData: loaded }) => [
  ...pageMeta(
    loaded?.title ? loaded.title.title : "Movie not found",
    "A title from the adult catalogue, for visitors aged 18 or older.",
  ),
  { name: "robots", content: "noindex, nofollow" },
];

export default function AdultTitlePage({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const { title } = loaderData;
  if (!title) return <TitleNotFound listPath="/adult-movies" backLabel={BACK_LABEL} />;
  return (
    <TitleDetail
      title={title.title}
      poster={title.poster}
      quantity={title.quantity}
      price={formatUsd(title.priceCents)}
      facts={[
        { label: "Year", value: title.year },
        { label: "Disc", value: title.disc },
        { label: "Price", value: formatUsd(title.priceCents) },
        { label: "Genre", value: title.genre },
        { label: "Production", value: title.production },
        { label: "Release Date", value: title.releaseDate },
        { label: "Condition", value: title.condition },
      ]}
      description={title.description}
      listPath="/adult-movies"
      backLabel={BACK_LABEL}
      onAddToCart={() => cart.add(adultCartProduct(title))}
    />
  );
}
