import { Cpu, Gamepad2, Smartphone } from "#app/components/ui/icons.tsx";
import { useState } from "react";
import { Link } from "react-router";
import { useCart } from "#app/components/cart-provider.tsx";
import { PosterImage } from "#app/components/poster-image.tsx";
import { POSTER_ROW_SIZES, PosterRow } from "#app/components/poster-row.tsx";
import { preloadTitleDetails, TitleDetailsDialog } from "#app/components/title-details-dialog.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { BACK_IN_STOCK_ANCHOR } from "#app/domain/alerts/anchor.ts";
import { listComingSoon, type ComingSoonCard } from "#app/domain/catalog/coming-soon.server.ts";
import { listStaffPicks, newArrivals } from "#app/domain/catalog/regular-titles.server.ts";
import { regularCartProduct } from "#app/lib/cart-products.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { formatReleaseDate } from "#app/lib/release-date.ts";
import { shopCalendarDate } from "#app/lib/shop-time.ts";
import { pageMeta, SHOP } from "#app/lib/site.ts";
import type { Route } from "./+types/_index";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Movies, Games, and More",
    `${SHOP.name} in Arlington, Texas: films on DVD, Blu-ray and 4K, memorabilia, and electronics repair with free estimates.`,
  );

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export async function loader() {
  const db = getDb();
  const [arrivals, upcoming, picks] = await Promise.all([
    newArrivals(db),
    listComingSoon(db, shopCalendarDate(new Date(), getEnv().SHOP_TIME_ZONE)).catch(
      (error: unknown): ComingSoonCard[] => {
        console.error("Coming Soon could not be loaded", error);
        return [];
      },
    ),
    listStaffPicks(db),
  ]);
  // Only what the rows show: the hydration data is part of every visit to the home page.
  return {
    arrivals: arrivals.map(({ regSerialNo, title, poster }) => ({ regSerialNo, title, poster })),
    upcoming: upcoming.map(({ id, title, releaseDate, poster }) => ({
      id,
      title,
      releaseDate,
      poster,
    })),
    picks: picks.map(({ regSerialNo, title, poster, disc, priceCents, description, inStock }) => ({
      regSerialNo,
      title,
      poster,
      disc,
      priceCents,
      description,
      inStock,
    })),
  };
}

type StaffPick = Awaited<ReturnType<typeof loader>>["picks"][number];

/** New Arrivals is the first row: about this many of its posters are in the first screenful. */
const FIRST_SCREEN_POSTERS = 8;

const REPAIR_CARDS = [
  {
    icon: Cpu,
    title: "PC & Laptop Repair",
    text: "Slow machine, cracked screen or a build that will not boot: we diagnose it for free.",
  },
  {
    icon: Smartphone,
    title: "Mobile Phone Repair",
    text: "Screens, batteries, charging ports and water damage, fixed while you browse the shelves.",
  },
  {
    icon: Gamepad2,
    title: "Game Console Repair",
    text: "Disc drives, HDMI ports, overheating and drift: consoles of every generation.",
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { arrivals, upcoming, picks } = loaderData;
  return (
    <>
      <Hero />

      <PosterRow
        label="New Arrivals"
        seeAllHref="/new-arrivals"
        secondsPerItem={10}
        emptyText="No new arrivals at the moment."
        items={arrivals.map((title, index) => ({
          key: title.regSerialNo,
          node: (
            <Link to={`/movies/${title.regSerialNo}`} state={{ page: 1 }} className="poster-card">
              <PosterImage
                src={title.poster}
                alt=""
                sizes={POSTER_ROW_SIZES}
                loading={index < FIRST_SCREEN_POSTERS ? "eager" : "lazy"}
              />
              <span>{title.title}</span>
            </Link>
          ),
        }))}
      />

      <PosterRow
        label="Coming Soon"
        later
        secondsPerItem={8}
        emptyText="No upcoming titles right now."
        items={upcoming.map((entry) => ({
          key: entry.id,
          node: (
            <Link to={`/coming-soon/${entry.id}`} className="poster-card">
              <PosterImage src={entry.poster} alt="" sizes={POSTER_ROW_SIZES} />
              <span className="mt-1 block text-sm">
                <span className="block truncate font-medium">{entry.title}</span>
                <span className="text-muted-foreground">
                  {formatReleaseDate(entry.releaseDate)}
                </span>
              </span>
            </Link>
          ),
        }))}
      />

      <StaffPicks picks={picks} />

      <RepairCards />

      <Memorabilia />
    </>
  );
}

/** The welcome: what the shop is, and its two ways in. */
function Hero() {
  return (
    <section aria-labelledby="home-heading" className="bg-[#1b1f2e] text-white">
      <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-10">
        <h1
          id="home-heading"
          className="max-w-3xl text-3xl font-extrabold tracking-tight sm:text-5xl"
        >
          Movies, Games, and More
        </h1>
        <p className="mt-3 max-w-3xl leading-relaxed text-slate-200 sm:text-lg">
          {SHOP.name} is Arlington&apos;s independent shop for physical media: films on DVD, Blu-ray
          and 4K, collectibles for every shelf, and repairs for the devices you play them on.{" "}
          <strong className="font-semibold text-amber-300">{SHOP.motto}</strong>
        </p>
        <div className="mt-4 flex flex-wrap gap-3 sm:mt-6">
          <Link to="/movies" className={buttonVariants()}>
            Browse Movies
          </Link>
          <Link
            to="/other-services"
            className={buttonVariants({
              variant: "outline",
              className:
                "border-white/40 bg-transparent text-white hover:bg-white/10 hover:text-white",
            })}
          >
            Repair Services
          </Link>
        </div>
      </div>
    </section>
  );
}

/** Staff Picks: a pick opens its details in a dialog, where it can go straight into the cart. */
function StaffPicks({ picks }: { picks: StaffPick[] }) {
  const cart = useCart();
  const [pick, setPick] = useState<StaffPick | null>(null);
  return (
    <PosterRow
      label="Staff Picks"
      later
      seeAllHref="/staff-picks"
      secondsPerItem={8}
      emptyText="No staff picks right now."
      items={picks.map((title) => ({
        key: title.regSerialNo,
        node: (
          <button
            type="button"
            onPointerEnter={preloadTitleDetails}
            onFocus={preloadTitleDetails}
            onClick={() => setPick(title)}
            className="poster-card"
          >
            <PosterImage src={title.poster} alt={title.title} sizes={POSTER_ROW_SIZES} />
          </button>
        ),
      }))}
    >
      <TitleDetailsDialog
        details={
          pick
            ? {
                title: pick.title,
                poster: pick.poster,
                priceCents: pick.priceCents,
                description: pick.description,
                inStock: pick.inStock,
                href: `/movies/${pick.regSerialNo}`,
                alertHref: `/movies/${pick.regSerialNo}#${BACK_IN_STOCK_ANCHOR}`,
                linkState: { page: 1 },
              }
            : null
        }
        emptyDescription="No description available."
        onClose={() => setPick(null)}
        onAddToCart={() => pick && cart.add(regularCartProduct(pick))}
      />
    </PosterRow>
  );
}

function RepairCards() {
  return (
    <section
      aria-labelledby="repairs-heading"
      className="later-on-page mx-auto max-w-7xl px-4 py-12 [contain-intrinsic-size:auto_760px] sm:px-6 sm:[contain-intrinsic-size:auto_350px]"
    >
      <h2 id="repairs-heading" className="text-2xl font-bold">
        Electronics Repair
      </h2>
      <p className="mt-2 text-muted-foreground">
        Diagnostics and estimates are free, and walk-ins are welcome.
      </p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {REPAIR_CARDS.map((card) => (
          <li key={card.title}>
            <Link
              to="/other-services"
              className="flex h-full flex-col gap-2 rounded-xl border bg-card p-6 shadow-sm transition hover:border-primary"
            >
              <card.icon aria-hidden="true" className="size-8 text-primary" />
              <span className="text-lg font-semibold">{card.title}</span>
              <span className="text-sm text-muted-foreground">{card.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Memorabilia() {
  return (
    <section
      aria-labelledby="memorabilia-heading"
      className="later-on-page bg-secondary [contain-intrinsic-size:auto_240px]"
    >
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <h2 id="memorabilia-heading" className="text-2xl font-bold">
          Memorabilia
        </h2>
        <p className="mt-3 max-w-3xl leading-relaxed text-secondary-foreground">
          Beyond the discs, our shelves hold posters, VHS tapes, board games and action figures.
          Stock changes every week, so stop by the shop to see what has come in.
        </p>
      </div>
    </section>
  );
}
