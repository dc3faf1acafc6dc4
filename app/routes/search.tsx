import { Form, Link, redirect } from "react-router";
import { ListLoading } from "#app/components/list-loading.tsx";
import { Pagination } from "#app/components/pagination.tsx";
import { listedRegularTitle, titleResult, TitleResults } from "#app/components/title-results.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { getDb } from "#app/db/client.server.ts";
import { searchParams, withPage } from "#app/domain/catalog/list-params.ts";
import {
  closestRegularTitle,
  searchRegularTitles,
} from "#app/domain/catalog/regular-titles.server.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData: data }) => [
  ...pageMeta(
    data?.query ? `Search results for "${data.query}"` : "Search",
    "Search our regular catalogue of films by title, director or cast.",
  ),
  { name: "robots", content: "noindex, follow" },
];

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const params = searchParams(url.searchParams);
  if (!params.query) return { query: "", result: null, hint: undefined };
  const db = getDb();
  const result = await searchRegularTitles(db, params);
  if (params.page !== result.page) throw redirect(withPage(url, result.page));
  // Only a miss or typo matches earn a spelling hint; exact matches need none.
  const hint =
    result.total === 0 || result.match === "similar"
      ? await closestRegularTitle(db, params.query)
      : undefined;
  return {
    query: params.query,
    result: { ...result, items: result.items.map(listedRegularTitle) },
    hint,
  };
}

const searchHref = (text: string) => `/search?query=${encodeURIComponent(text)}`;

export default function SearchResults({ loaderData }: Route.ComponentProps) {
  const { query, result, hint } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold">
        {query ? `Search results for "${query}"` : "Search films"}
      </h1>
      {/* The query stays in its own field, to refine it; `key` resets it on a new search. */}
      <Form
        method="get"
        role="search"
        aria-label="Search the results"
        className="mt-4 flex max-w-xl items-end gap-2"
      >
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="search-page-query">Title, director or cast</Label>
          <Input
            id="search-page-query"
            key={query}
            name="query"
            type="search"
            defaultValue={query}
            required
          />
        </div>
        <Button type="submit">Search</Button>
      </Form>
      {result ? (
        <>
          <p className="mt-3 text-sm text-muted-foreground">
            {countLabel(result.total, false, "title")} found
            {result.match === "similar" ? ` close to "${query}"` : null}
          </p>
          {hint ? (
            <p className="mt-2">
              Did you mean{" "}
              <Link to={searchHref(hint)} className="font-medium text-primary underline">
                {hint}
              </Link>
              ?
            </p>
          ) : null}
          <ListLoading pathname="/search" text="Loading results…" />
          {result.total === 0 ? (
            <section aria-labelledby="no-results" className="mt-6">
              <h2 id="no-results" className="text-lg font-semibold">
                No matches found.
              </h2>
              <p className="mt-1 text-muted-foreground">
                Check the spelling, try fewer words, or browse instead:
              </p>
              <ul className="mt-3 flex flex-wrap gap-3">
                <li>
                  <Link to="/movies" className={buttonVariants({ variant: "outline" })}>
                    Browse all Regular Titles
                  </Link>
                </li>
                <li>
                  <Link to="/new-arrivals" className={buttonVariants({ variant: "outline" })}>
                    See New Arrivals
                  </Link>
                </li>
              </ul>
            </section>
          ) : (
            <>
              <div className="mt-6">
                <TitleResults
                  titles={result.items.map(titleResult)}
                  linkState={{ page: 1, isAdult: false }}
                  emptyText="No matches found."
                />
              </div>
              <Pagination page={result.page} pageCount={result.pageCount} />
            </>
          )}
        </>
      ) : (
        <p className="mt-4 text-muted-foreground">
          Type a title in the search box at the top of the page.
        </p>
      )}
    </div>
  );
}
