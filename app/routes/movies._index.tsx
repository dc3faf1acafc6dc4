import { Form, redirect, useSubmit } from "react-router";
import { CatalogueListPage } from "#app/components/catalogue-list-page.tsx";
import { listedRegularTitle, titleResult } from "#app/components/title-results.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { getDb } from "#app/db/client.server.ts";
import { DISCS } from "#app/lib/catalog.ts";
import {
  REGULAR_SORT_OPTIONS,
  regularListParams,
  withPage,
} from "#app/domain/catalog/list-params.ts";
import { listRegularTitles, regularGenres } from "#app/domain/catalog/regular-titles.server.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/movies._index";

export const meta: Route.MetaFunction = ({ loaderData: data }) =>
  pageMeta(
    data && data.result.page > 1 ? `Regular Titles, page ${data.result.page}` : "Regular Titles",
    "Browse our regular catalogue of films on DVD, Blu-ray, 4K/Blu-ray and collections.",
  );

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const params = regularListParams(url.searchParams);
  const db = getDb();
  const [result, genres] = await Promise.all([listRegularTitles(db, params), regularGenres(db)]);
  if (params.page !== result.page) throw redirect(withPage(url, result.page));
  return {
    result: { ...result, items: result.items.map(listedRegularTitle) },
    genres,
    disc: params.disc ?? "",
    genre: params.genre ?? "",
    sort: params.sort,
  };
}

export default function RegularTitles({ loaderData }: Route.ComponentProps) {
  const { result, genres, disc, genre, sort } = loaderData;
  const submit = useSubmit();
  return (
    <CatalogueListPage
      heading="Regular Titles"
      result={result}
      titles={result.items.map(titleResult)}
      listPath="/movies"
      loadingText="Loading Regular Movies…"
      emptyText="No titles match this filter."
      filters={
        <Form
          method="get"
          className="flex flex-wrap items-end gap-3"
          onChange={(event) => submit(event.currentTarget)}
        >
          {[
            { name: "disc", label: "Disc", value: disc, options: DISCS, placeholder: "All" },
            { name: "genre", label: "Genre", value: genre, options: genres, placeholder: "All" },
            { name: "sort", label: "Sort", value: sort, options: REGULAR_SORT_OPTIONS },
          ].map((filter) => (
            <div key={filter.name} className="flex flex-col gap-1.5">
              <Label htmlFor={filter.name}>{filter.label}</Label>
              <NativeSelect
                id={filter.name}
                name={filter.name}
                defaultValue={filter.value}
                key={`${filter.name}-${filter.value}`}
                placeholder={filter.placeholder}
                options={filter.options}
              />
            </div>
          ))}
          <noscript>
            <Button type="submit" variant="outline">
              Apply
            </Button>
          </noscript>
        </Form>
      }
    />
  );
}
