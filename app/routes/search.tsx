import { redirect } from "react-router";
import { ListLoading } from "#app/components/list-loading.tsx";
import { Pagination } from "#app/components/pagination.tsx";
import { regularResult, TitleResults } from "#app/components/title-results.tsx";
import { getDb } from "#app/db/client.server.ts";
import { searchParams, withPage } from "#app/domain/catalog/list-params.ts";
import { searchRegularTitles } from "#app/domain/catalog/regular-titles.server.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData: data }) => [
  ...pageMeta(
    data?.query ? `Search results for "${data.query}"` : "Search",
    "Search our regular catalogue of films by title.",
  ),
  { name: "robots", content: "noindex, follow" },
];

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const params = searchParams(url.searchParams);
  if (!params.query) return { query: "", result: null };
  const result = await searchRegularTitles(getDb(), params);
  if (params.page !== result.page) throw redirect(withPage(url, result.page));
  return { query: params.query, result };
}

export default function SearchResults({ loaderData }: Route.ComponentProps) {
  const { query, result } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold">
        {query ? `Search results for "${query}"` : "Search films"}
      </h1>
      {result ? (
        <>
          <p className="mt-1 text-sm text-muted-foreground">
            {result.total.toLocaleString("en-US")} {result.total === 1 ? "title" : "titles"} found
          </p>
          <ListLoading pathname="/search" text="Loading results…" />
          <div className="mt-6">
            <TitleResults
              titles={result.items.map(regularResult)}
              linkState={{ page: 1, isAdult: false }}
              emptyText="No matches found."
            />
          </div>
          <Pagination page={result.page} pageCount={result.pageCount} />
        </>
      ) : (
        <p className="mt-4 text-muted-foreground">
          Type a title in the search box at the top of the page.
        </p>
      )}
    </div>
  );
}
