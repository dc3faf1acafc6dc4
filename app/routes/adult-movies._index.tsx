import { Search } from "#app/components/ui/icons.tsx";
import { Form, redirect, useLocation, useSubmit } from "react-router";
import { ListLoading } from "#app/components/list-loading.tsx";
import { Pagination } from "#app/components/pagination.tsx";
import { adultResult, listedAdultTitle, TitleResults } from "#app/components/title-results.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { getDb } from "#app/db/client.server.ts";
import { ageGatedPageHeaders, requireAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { listAdultTitles } from "#app/domain/catalog/adult-titles.server.ts";
import { adultListParams, withPage } from "#app/domain/catalog/list-params.ts";
import { countLabel } from "#app/lib/count-label.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/adult-movies._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Adult Titles", "The adult catalogue, for visitors aged 18 or older."),
  { name: "robots", content: "noindex, nofollow" },
];

export const headers: Route.HeadersFunction = () => ageGatedPageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  await requireAgeVerified(request);
  const url = new URL(request.url);
  const params = adultListParams(url.searchParams);
  const result = await listAdultTitles(getDb(), params);
  if (params.page !== result.page) throw redirect(withPage(url, result.page));
  return {
    result: { ...result, items: result.items.map(listedAdultTitle) },
    production: params.production ?? "",
    sort: params.sort,
  };
}

const ADULT_SORTS = [
  { value: "none", label: "Catalogue order" },
  { value: "az", label: "Title A→Z" },
  { value: "za", label: "Title Z→A" },
];

export default function AdultTitles({ loaderData }: Route.ComponentProps) {
  const { result, production, sort } = loaderData;
  const location = useLocation();
  const listUrl = `${location.pathname}${location.search}`;
  const submit = useSubmit();

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Adult Titles</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {countLabel(result.total, false, "title")} · page {result.page} of {result.pageCount}
          </p>
        </div>
        <Form
          method="get"
          role="search"
          aria-label="Search adult titles"
          className="flex flex-wrap items-end gap-3"
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="production">Production</Label>
            <Input
              id="production"
              name="production"
              type="search"
              defaultValue={production}
              key={`production-${production}`}
              placeholder="Search by production"
              className="w-56"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="sort">Sort</Label>
            <NativeSelect
              id="sort"
              name="sort"
              defaultValue={sort}
              key={`sort-${sort}`}
              onChange={(event) => event.currentTarget.form && submit(event.currentTarget.form)}
              options={ADULT_SORTS}
            />
          </div>
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" />
            Search
          </Button>
        </Form>
      </div>
      <ListLoading pathname="/adult-movies" text="Loading Adult Movies…" />
      <div className="mt-6">
        <TitleResults
          titles={result.items.map(adultResult)}
          linkState={{ page: result.page, from: listUrl }}
          emptyText="No titles match this production."
        />
      </div>
      <Pagination page={result.page} pageCount={result.pageCount} />
    </div>
  );
}
