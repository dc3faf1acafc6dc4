import { CalendarClock, Library, Star } from "#app/components/ui/icons.tsx";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { Link } from "react-router";
import { ShopAddress, useShopContact } from "#app/components/site-footer.tsx";
import { pageMeta, SHOP, SHOP_ADDRESS, telHref } from "#app/lib/site.ts";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "About",
    `Who we are: ${SHOP.name}, films, memorabilia and repairs in Arlington, Texas.`,
  );

export const headers: Route.HeadersFunction = () => publicPageHeaders();

const PILLARS = [
  {
    icon: Library,
    title: "Extensive Library",
    text: "Thousands of films on DVD, Blu-ray and 4K, from silent classics to new releases, plus collections and box sets.",
  },
  {
    icon: Star,
    title: "Curated Staff Picks",
    text: "Our staff watch a lot of movies. Their current favourites are always one click away.",
  },
  {
    icon: CalendarClock,
    title: "Upcoming Releases",
    text: "See what is coming soon and find it on the shelf the week it comes out.",
  },
];

export default function About() {
  const contact = useShopContact();
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">About {SHOP.name}</h1>
      <p className="mt-2 text-xl font-semibold text-primary">{SHOP.motto}</p>
      <p className="mt-4 max-w-3xl leading-relaxed">
        We are an independent shop in Arlington, Texas for people who still like to hold their
        movies. We sell films on disc, collect memorabilia, and repair the electronics you watch and
        play them on.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-3">
        {PILLARS.map((pillar) => (
          <li key={pillar.title} className="rounded-xl border bg-card p-6 shadow-sm">
            <pillar.icon aria-hidden="true" className="size-8 text-primary" />
            <h2 className="mt-3 text-lg font-semibold">{pillar.title}</h2>
            <p className="mt-2 text-sm text-muted-foreground">{pillar.text}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="specialties" className="mt-12">
        <h2 id="specialties" className="text-2xl font-bold">
          Our specialties
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-6">
          <li>Regular titles on DVD, Blu-ray, 4K/Blu-ray and collector&apos;s collections</li>
          <li>A separate adult catalogue for customers aged 18 or older</li>
          <li>Memorabilia: posters, VHS tapes, board games and action figures</li>
          <li>
            Electronics repair for PCs, laptops, phones, game consoles and TVs, with free
            diagnostics and estimates
          </li>
        </ul>
      </section>
      <section aria-labelledby="mission" className="mt-12">
        <h2 id="mission" className="text-2xl font-bold">
          Our mission
        </h2>
        <p className="mt-4 max-w-3xl leading-relaxed">
          To keep physical media and the devices that play it alive and affordable: a well-kept
          shelf, honest advice and repairs done right, for everyone who walks through our door at{" "}
          {SHOP_ADDRESS}.
        </p>
      </section>
      <section aria-labelledby="visit" className="mt-12">
        <h2 id="visit" className="text-2xl font-bold">
          Visit or call us
        </h2>
        <address className="mt-4 flex flex-col gap-2 not-italic">
          <span>
            <ShopAddress contact={contact} linkClassName="font-medium text-primary underline" />
          </span>
          {contact ? (
            <>
              <span>
                Phone:{" "}
                <a href={telHref(contact.phone)} className="font-medium text-primary underline">
                  {contact.phone}
                </a>
              </span>
              <span>
                E-mail:{" "}
                <a href={`mailto:${contact.email}`} className="font-medium text-primary underline">
                  {contact.email}
                </a>
              </span>
              <span>Opening hours: {contact.hours}</span>
            </>
          ) : null}
        </address>
        <p className="mt-4">
          Changed your mind about something you bought? See our{" "}
          <Link to="/returns" className="font-medium text-primary underline">
            returns policy
          </Link>
          .
        </p>
      </section>
    </div>
  );
}
