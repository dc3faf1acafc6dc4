import { ShoppingCart } from "#app/components/ui/icons.tsx";
import { Link, useLocation } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { PosterImage } from "./poster-image.tsx";
import { Button } from "./ui/button.tsx";

/** At or below this many copies left, the title page says how many ("Only 2 left"). */
export const FEW_LEFT = 3;

/** What a title page says about its stock. */
export function stockLabel(quantity: number): string {
  if (quantity <= 0) return "Out of stock";
  if (quantity <= FEW_LEFT) return `Only ${quantity} left`;
  return "In stock";
}

export type RelatedTitle = { href: string; title: string; poster: string; detail: string };

type Props = {
  title: string;
  poster: string;
  /** Copies left to sell. */
  quantity: number;
  price: string;
  facts: { label: string; value: string | number | null }[];
  description: string | null;
  listPath: "/movies" | "/adult-movies";
  backLabel: string;
  /** The same film on other discs, each with its price. */
  otherEditions?: { href: string; disc: string; price: string }[];
  /** Other films by the same director or in the same genres. */
  related?: RelatedTitle[];
  onAddToCart: () => void;
  /** What a shopper can do while it is sold out (the regular catalogue's alert signup). */
  whenSoldOut?: React.ReactNode;
};

/** Where the back button goes: the list page the shopper came from, or the list's first page. */
export function backHref(listPath: string, state: unknown): string {
  const { from, page } = (state ?? {}) as { from?: unknown; page?: unknown };
  if (typeof from === "string" && (from === listPath || from.startsWith(`${listPath}?`))) {
    return from;
  }
  if (typeof page === "number" && Number.isInteger(page) && page > 1)
    return `${listPath}?page=${page}`;
  return listPath;
}

export function TitleDetail(props: Props) {
  const location = useLocation();
  const inStock = props.quantity > 0;
  return (
    <article className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <Link
        to={backHref(props.listPath, location.state)}
        className="inline-block rounded-md text-sm font-medium text-primary underline"
      >
        {props.backLabel}
      </Link>
      <div className="mt-6 grid gap-8 md:grid-cols-[300px_1fr]">
        {/* The page's largest image: fetched first, at the width it is shown. */}
        <PosterImage
          src={props.poster}
          alt={`Poster of ${props.title}`}
          loading="eager"
          fetchPriority="high"
          sizes="(min-width: 768px) 300px, (min-width: 352px) 320px, calc(100vw - 2rem)"
          className="max-w-xs"
        />
        <div>
          <h1 className="text-3xl font-bold">{props.title}</h1>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            {props.facts.map((fact) => (
              <div key={fact.label} className="contents">
                <dt className="font-medium">{fact.label}:</dt>
                <dd>{fact.value ?? "—"}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-6 flex flex-wrap items-center gap-x-5 gap-y-3 rounded-lg border bg-card p-4">
            <p className="text-3xl font-bold tracking-tight">
              <span className="sr-only">Price: </span>
              {props.price}
            </p>
            <Button size="lg" onClick={props.onAddToCart} disabled={!inStock}>
              <ShoppingCart aria-hidden="true" />
              Add to Cart
            </Button>
            <p
              className={cn(
                "w-full text-sm font-medium",
                !inStock
                  ? "text-destructive"
                  : props.quantity <= FEW_LEFT
                    ? "text-amber-700 dark:text-amber-300"
                    : "text-emerald-700 dark:text-emerald-400",
              )}
            >
              {stockLabel(props.quantity)}
            </p>
          </div>
          {inStock ? null : props.whenSoldOut}
          {props.otherEditions && props.otherEditions.length > 0 ? (
            <section aria-labelledby="other-editions" className="mt-8">
              <h2 id="other-editions" className="text-lg font-semibold">
                Other editions
              </h2>
              <ul className="mt-2 flex flex-wrap gap-2">
                {props.otherEditions.map((edition) => (
                  <li key={edition.href}>
                    <Link
                      to={edition.href}
                      state={location.state}
                      className="inline-block rounded-md border px-3 py-2 text-sm font-medium hover:bg-accent"
                    >
                      {edition.disc} · {edition.price}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <h2 className="mt-8 text-lg font-semibold">Description</h2>
          <p className="mt-2 leading-relaxed">{props.description || "No description."}</p>
        </div>
      </div>
      {props.related && props.related.length > 0 ? (
        <section aria-labelledby="related-titles" className="mt-12">
          <h2 id="related-titles" className="text-xl font-semibold">
            You may also like
          </h2>
          <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
            {props.related.map((related) => (
              <li key={related.href}>
                <Link to={related.href} state={location.state} className="block rounded-md">
                  <PosterImage
                    src={related.poster}
                    alt=""
                    sizes="(min-width: 1024px) 150px, (min-width: 640px) 30vw, 45vw"
                  />
                  <span className="mt-1 block text-sm font-medium">{related.title}</span>
                  <span className="block text-sm text-muted-foreground">{related.detail}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

export function TitleNotFound({ listPath, backLabel }: { listPath: string; backLabel: string }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Movie not found.</h1>
      <Link to={listPath} className="mt-6 inline-block font-medium text-primary underline">
        {backLabel}
      </Link>
    </section>
  );
}
