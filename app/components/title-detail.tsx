import { ShoppingCart } from "lucide-react";
import { Link, useLocation } from "react-router";
import { PosterImage } from "./poster-image.tsx";
import { Button } from "./ui/button.tsx";

type Props = {
  title: string;
  poster: string;
  inStock: boolean;
  facts: { label: string; value: string | number | null }[];
  description: string | null;
  listPath: "/movies" | "/adult-movies";
  backLabel: string;
  /** The same film on other discs, each with its price. */
  otherEditions?: { href: string; disc: string; price: string }[];
  onAddToCart: () => void;
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
  return (
    <article className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <Link
        to={backHref(props.listPath, location.state)}
        className="inline-block rounded-md text-sm font-medium text-primary underline"
      >
        {props.backLabel}
      </Link>
      <div className="mt-6 grid gap-8 md:grid-cols-[300px_1fr]">
        <PosterImage
          src={props.poster}
          alt={`Poster of ${props.title}`}
          priority
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
          <p
            className={
              props.inStock
                ? "mt-1 text-sm text-muted-foreground"
                : "mt-1 font-medium text-destructive"
            }
          >
            {props.inStock ? "In stock" : "Out of stock"}
          </p>
          <Button size="lg" className="mt-4" onClick={props.onAddToCart} disabled={!props.inStock}>
            <ShoppingCart aria-hidden="true" />
            Add to Cart
          </Button>
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
