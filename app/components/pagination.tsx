import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from "#app/components/ui/icons.tsx";
import { Link, useLocation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { responsivePageItems, type PageItem } from "#app/lib/pagination.ts";

const itemClass =
  "inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border px-2 text-sm font-medium";

/** First / previous / a window of pages with ellipses / next / last, as links that keep the query. */
export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const location = useLocation();
  if (pageCount <= 1) return null;

  const hrefFor = (target: number) => {
    const params = new URLSearchParams(location.search);
    if (target === 1) params.delete("page");
    else params.set("page", String(target));
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };

  // First and Last stay off phones: the first and last page numbers are there anyway.
  const edge = (
    target: number,
    label: string,
    icon: React.ReactNode,
    disabled: boolean,
    className?: string,
  ) =>
    disabled ? (
      <span aria-disabled="true" className={cn(itemClass, "opacity-50", className)}>
        {icon}
        <span className="sr-only sm:not-sr-only">{label}</span>
      </span>
    ) : (
      <Link
        to={hrefFor(target)}
        className={cn(itemClass, "hover:bg-accent", className)}
        aria-label={`${label} page`}
      >
        {icon}
        <span className="sr-only sm:not-sr-only" aria-hidden="true">
          {label}
        </span>
      </Link>
    );

  const pageLink = (entry: PageItem, className: string) =>
    entry.kind === "ellipsis" ? (
      <span
        key={entry.key}
        aria-hidden="true"
        className={cn("px-1 text-muted-foreground", className)}
      >
        …
      </span>
    ) : entry.page === page ? (
      <span
        key={entry.page}
        aria-current="page"
        className={cn(itemClass, "border-primary bg-primary text-primary-foreground", className)}
      >
        <span className="sr-only">Page </span>
        {entry.page}
      </span>
    ) : (
      <Link
        key={entry.page}
        to={hrefFor(entry.page)}
        aria-label={`Page ${entry.page}`}
        className={cn(itemClass, "hover:bg-accent", className)}
      >
        {entry.page}
      </Link>
    );

  return (
    <nav
      aria-label="Pagination"
      className="mt-8 flex flex-wrap items-center justify-center gap-1.5"
    >
      {edge(
        1,
        "First",
        <ChevronFirst aria-hidden="true" className="size-4" />,
        page <= 1,
        "max-sm:hidden",
      )}
      {edge(page - 1, "Previous", <ChevronLeft aria-hidden="true" className="size-4" />, page <= 1)}
      {/* Phones get one page on each side of the current one, so the bar stays one line. */}
      {responsivePageItems(page, pageCount).map(({ item, show }) =>
        pageLink(item, show === "wide" ? "max-sm:hidden" : show === "narrow" ? "sm:hidden" : ""),
      )}
      {edge(
        page + 1,
        "Next",
        <ChevronRight aria-hidden="true" className="size-4" />,
        page >= pageCount,
      )}
      {edge(
        pageCount,
        "Last",
        <ChevronLast aria-hidden="true" className="size-4" />,
        page >= pageCount,
        "max-sm:hidden",
      )}
    </nav>
  );
}
