import { useLocation } from "react-router";
import { ListLoading } from "#app/components/list-loading.tsx";
import { Pagination } from "#app/components/pagination.tsx";
import { TitleResults, type ResultTitle } from "#app/components/title-results.tsx";
import { countLabel } from "#app/lib/count-label.ts";

/**
 * A catalogue's list page, regular or adult: heading and count, its filter form, the titles of
 * this page and the pages. A title opened from here leads back to this very page.
 */
export function CatalogueListPage({
  heading,
  result,
  titles,
  filters,
  listPath,
  loadingText,
  emptyText,
}: {
  heading: string;
  result: { total: number; page: number; pageCount: number };
  titles: ResultTitle[];
  filters: React.ReactNode;
  /** The list's own address: its loading text shows while a page of it is on its way. */
  listPath: string;
  loadingText: string;
  emptyText: string;
}) {
  const location = useLocation();
  const listUrl = `${location.pathname}${location.search}`;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{heading}</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {countLabel(result.total, false, "title")} · page {result.page} of {result.pageCount}
          </p>
        </div>
        {filters}
      </div>
      <ListLoading pathname={listPath} text={loadingText} />
      <div className="mt-6">
        <TitleResults
          titles={titles}
          linkState={{ page: result.page, from: listUrl }}
          emptyText={emptyText}
        />
      </div>
      <Pagination page={result.page} pageCount={result.pageCount} />
    </div>
  );
}
