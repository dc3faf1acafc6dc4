import { Link } from "react-router";
import { ALERT_KIND_LABELS, waitingLabel } from "#app/domain/alerts/status.ts";
import { moreLink, panel, type Figures } from "./figures.ts";

/** A title named on the dashboard: a link to its page for staff who may open it. */
function TitleName({ to, children }: { to: string | null; children: React.ReactNode }) {
  const className = "min-w-0 flex-1 break-words";
  return to ? (
    <Link to={to} className={`${className} hover:underline`}>
      {children}
    </Link>
  ) : (
    <span className={className}>{children}</span>
  );
}

function LowStockList({
  heading,
  titles,
  more,
  editHref,
  listHref,
}: {
  heading: string;
  titles: { serialNo: number; title: string; quantity: number }[];
  more: boolean;
  /** Null for staff who may not open the catalogue's pages. */
  editHref: ((serialNo: number) => string) | null;
  listHref: string;
}) {
  return (
    <div>
      <h3 className="text-sm font-semibold">{heading}</h3>
      {titles.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">None.</p>
      ) : (
        <ul className="mt-1 divide-y text-sm">
          {titles.map((title) => (
            <li key={title.serialNo} className="flex items-baseline justify-between gap-3 py-2">
              <TitleName to={editHref?.(title.serialNo) ?? null}>{title.title}</TitleName>
              <span className="shrink-0 text-muted-foreground tabular-nums">
                {title.quantity} left
              </span>
            </li>
          ))}
        </ul>
      )}
      {more && editHref ? (
        <Link to={listHref} className={moreLink}>
          More: the list by stock, fewest first
        </Link>
      ) : null}
    </div>
  );
}

/** The titles with the fewest copies left, in each catalogue. */
export function LowStock({ figures }: { figures: Figures }) {
  return (
    <section aria-labelledby="stock-heading" className={`${panel} flex flex-col gap-4`}>
      <div>
        <h2 id="stock-heading" className="text-lg font-semibold">
          Low on stock
        </h2>
        <p className="text-sm text-muted-foreground">
          Titles with {figures.lowStockThreshold}{" "}
          {figures.lowStockThreshold === 1 ? "copy" : "copies"} or fewer left.
        </p>
      </div>
      <LowStockList
        heading="Regular titles"
        titles={figures.lowStock.regular}
        more={figures.lowStock.moreRegular}
        editHref={figures.mayEditCatalogue ? (serialNo) => `/admin/items/${serialNo}/edit` : null}
        listHref="/admin/items?sort=qty&dir=asc"
      />
      <LowStockList
        heading="Adult titles"
        titles={figures.lowStock.adult}
        more={figures.lowStock.moreAdult}
        editHref={
          figures.mayEditCatalogue ? (serialNo) => `/admin/adult/items/${serialNo}/edit` : null
        }
        listHref="/admin/adult/items?sort=qty&dir=asc"
      />
    </section>
  );
}

/** What shoppers asked to be told about most: a title's restock or an entry's release. */
export function MostWanted({
  wanted,
  linked,
}: {
  wanted: Figures["wanted"];
  /** Whether the titles link to their pages in the catalogue and Coming Soon. */
  linked: boolean;
}) {
  return (
    <section aria-labelledby="wanted-heading" className={panel}>
      <h2 id="wanted-heading" className="text-lg font-semibold">
        Most wanted
      </h2>
      <p className="text-sm text-muted-foreground">
        Titles with the most shoppers waiting for an e-mail alert.
      </p>
      {wanted.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">Nobody is waiting for a title.</p>
      ) : (
        <ul className="mt-2 divide-y text-sm">
          {wanted.map((row) => (
            <li key={`${row.kind}-${row.id}`} className="flex items-baseline gap-3 py-2">
              <TitleName
                to={
                  !linked
                    ? null
                    : row.kind === "restock"
                      ? `/admin/items/${row.id}/edit`
                      : "/admin/coming-soon"
                }
              >
                {row.title}
              </TitleName>
              <span className="shrink-0 text-muted-foreground">
                {ALERT_KIND_LABELS[row.kind].toLowerCase()}
              </span>
              <span className="shrink-0 font-semibold tabular-nums">
                {waitingLabel(row.waiting)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
