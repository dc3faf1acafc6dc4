import { listedRegularTitle, titleResult, TitleResults } from "#app/components/title-results.tsx";
import { getDb } from "#app/db/client.server.ts";
import { newArrivals } from "#app/domain/catalog/regular-titles.server.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/new-arrivals";

/** The listing page shows two rows' worth more than the home page's row. */
const NEW_ARRIVALS_PAGE_LIMIT = 24;

export const meta: Route.MetaFunction = () =>
  pageMeta("New Arrivals", "The films that arrived at the shop most recently.");

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader() {
  const titles = await newArrivals(getDb(), NEW_ARRIVALS_PAGE_LIMIT);
  return { titles: titles.map(listedRegularTitle) };
}

export default function NewArrivals({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold">New Arrivals</h1>
      <p className="mt-1 text-muted-foreground">Fresh on the shelves this week.</p>
      <div className="mt-6">
        <TitleResults
          titles={loaderData.titles.map(titleResult)}
          linkState={{ page: 1 }}
          emptyText="No new arrivals at the moment."
        />
      </div>
    </div>
  );
}
