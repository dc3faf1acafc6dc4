import { data, Link } from "react-router";
import { AlertSignup } from "#app/components/alert-signup.tsx";
import { PosterImage } from "#app/components/poster-image.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { ArrowLeft } from "#app/components/ui/icons.tsx";
import { getDb } from "#app/db/client.server.ts";
import { getComingSoon } from "#app/domain/catalog/coming-soon.server.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { formatReleaseDate } from "#app/lib/release-date.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/coming-soon.$id";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData?.entry.linkedTitle
    ? pageMeta(`${loaderData.entry.title}: out now`, `${loaderData.entry.title} is out now.`)
    : loaderData
      ? pageMeta(
          `${loaderData.entry.title}: coming soon`,
          `${loaderData.entry.title} is coming on ${formatReleaseDate(loaderData.entry.releaseDate)}.`,
        )
      : pageMeta("Coming soon", "An upcoming title.");

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader({ params }: Route.LoaderArgs) {
  const entry = await getComingSoon(getDb(), Number(params.id));
  if (!entry) throw data("There is no such upcoming title.", { status: 404 });
  return { entry };
}

/**
 * An upcoming title from the home page's Coming Soon row, and the way to be told on release.
 * Once staff link it to its catalogue title it is out: the page leads to the title, whose own
 * page offers the back-in-stock alert if it sells out (decision 012).
 */
export default function ComingSoonEntry({ loaderData }: Route.ComponentProps) {
  const { entry } = loaderData;
  const linked = entry.linkedTitle;
  return (
    <article className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <Link
        to="/"
        className="inline-flex items-center gap-1 text-sm font-medium text-primary underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Home
      </Link>
      <div className="mt-6 grid gap-8 md:grid-cols-[260px_1fr]">
        <PosterImage
          src={entry.poster}
          alt={`Poster of ${entry.title}`}
          loading="eager"
          className="max-w-xs"
        />
        <div>
          <p className="text-sm font-medium uppercase tracking-wide text-muted-foreground">
            {linked ? "Out now" : "Coming soon"}
          </p>
          <h1 className="text-3xl font-bold">{entry.title}</h1>
          <p className="mt-2 text-lg">Release date: {formatReleaseDate(entry.releaseDate)}</p>
          {entry.description ? <p className="mt-4 leading-relaxed">{entry.description}</p> : null}
          {linked ? (
            <section
              aria-labelledby="out-now"
              className="mt-4 flex flex-col gap-3 rounded-lg border p-4"
            >
              <h2 id="out-now" className="text-base font-semibold">
                Released
              </h2>
              <p>{entry.title} is in our catalogue now.</p>
              <div>
                <Link
                  to={`/movies/${linked.serialNo}`}
                  className={buttonVariants({ variant: "outline" })}
                >
                  See {linked.title}
                </Link>
              </div>
            </section>
          ) : (
            <AlertSignup kind="release" id={entry.id} title={entry.title} />
          )}
        </div>
      </div>
    </article>
  );
}
