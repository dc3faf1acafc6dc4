import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";

/**
 * A back-office list's tabs by status, each with its count; the current one is marked for
 * screen readers (`aria-current`) as well as drawn. `current` null: none is (a search spans all).
 */
export function StatusTabs<Tab extends string>({
  label,
  tabs,
  current,
  href,
}: {
  label: string;
  tabs: readonly { tab: Tab; label: string; count: number }[];
  current: Tab | null;
  href: (tab: Tab) => string;
}) {
  return (
    <nav aria-label={label} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {tabs.map(({ tab, label: tabLabel, count }) => (
          <li key={tab}>
            <Link
              to={href(tab)}
              aria-current={current === tab ? "page" : undefined}
              className={cn(
                "inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm font-medium hover:bg-accent",
                current === tab && "border-primary bg-accent",
              )}
            >
              {tabLabel}
              <span className="rounded-full bg-muted px-2 text-xs tabular-nums">{count}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
