import { listedRegularTitle, titleResult, TitleResults } from "#app/components/title-results.tsx";
import { getDb } from "#app/db/client.server.ts";
import { listStaffPicks } from "#app/domain/catalog/regular-titles.server.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/staff-picks";

export const meta: Route.MetaFunction = () =>
  pageMeta("Staff Picks", "The films our staff recommend right now.");

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader() {
  const titles = await listStaffPicks(getDb());
  return { titles: titles.map(listedRegularTitle) };
}

export default function StaffPicks({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold">Staff Picks</h1>
      <p className="mt-1 text-muted-foreground">Hand-picked by the people behind the counter.</p>
      <div className="mt-6">
        <TitleResults
          titles={loaderData.titles.map(titleResult)}
          linkState={{ page: 1 }}
          emptyText="No staff picks right now."
        />
      </div>
    </div>
  );
}
