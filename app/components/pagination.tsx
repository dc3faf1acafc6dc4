import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from "lucide-react";
import { Link, useLocation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { pageItems } from "#app/lib/pagination.ts";

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

  const edge = (target: number, label: string, icon: React.ReactNode, disabled: boolean) =>
    disabled ? (
      <span aria-disabled="true" className={cn(itemClass, "opacity-50")}>
        {icon}
        <span className="sr-only sm:not-sr-only">{label}</span>
      </span>
    ) : (
      <Link
        to={hrefFor(target)}
        className={cn(itemClass, "hover:bg-accent")}
        aria-label={`${label} page`}
      >
        {icon}
        <span className="sr-only sm:not-sr-only" aria-hidden="true">
          {label}
        </span>
      </Link>
    );

  return (
    <nav
      aria-label="Pagination"
      className="mt-8 flex flex-wrap items-center justify-center gap-1.5"
    >
      {edge(1, "First", <ChevronFirst aria-hidden="true" className="size-4" />, page <= 1)}
      {edge(page - 1, "Previous", <ChevronLeft aria-hidden="true" className="size-4" />, page <= 1)}
      {pageItems(page, pageCount).map((item) =>
        item.kind === "ellipsis" ? (
          <span key={item.key} aria-hidden="true" className="px-1 text-muted-foreground">
            …
          </span>
        ) : item.page === page ? (
          <span
            key={item.page}
            aria-current="page"
            className={cn(itemClass, "border-primary bg-primary text-primary-foreground")}
          >
            <span className="sr-only">Page </span>
            {item.page}
          </span>
        ) : (
          <Link
            key={item.page}
            to={hrefFor(item.page)}
            aria-label={`Page ${item.page}`}
            className={cn(itemClass, "hover:bg-accent")}
          >
            {item.page}
          </Link>
        ),
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
      )}
    </nav>
  );
}
