import { Search } from "#app/components/ui/icons.tsx";
import { Form, redirect, useSubmit } from "react-router";
import { CatalogueListPage } from "#app/components/catalogue-list-page.tsx";
import { titleResult, listedAdultTitle } from "#app/components/title-results.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { getDb } from "#app/db/client.server.ts";
import { ageGatedPageHeaders, requireAgeVerified } from "#app/domain/age-gate/age-gate.server.ts";
import { listAdultTitles } from "#app/domain/catalog/adult-titles.server.ts";
import { adultListParams, withPage } from "#app/domain/catalog/list-params.ts";
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
  const submit = useSubmit();
  return (
    <CatalogueListPage
      heading="Adult Titles"
      result={result}
      titles={result.items.map(titleResult)}
      listPath="/adult-movies"
      loadingText="Loading Adult Movies…"
      emptyText="No titles match this production."
      filters={
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
      }
    />
  );
}
