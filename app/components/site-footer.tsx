import { Clock, Mail, MapPin, Phone } from "#app/components/ui/icons.tsx";
import { useEffect, useState } from "react";
import { Link, useLocation, useRouteLoaderData } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { SHOP, SHOP_ADDRESS, telHref, type ShopContact } from "#app/lib/site.ts";

/** The shop's contact details the root loader read from configuration (none on an error page). */
export function useShopContact(): ShopContact | undefined {
  return useRouteLoaderData<{ shop: ShopContact }>("root")?.shop;
}

/** The footer shows once the page is scrolled to within this many pixels of its bottom. */
export const FOOTER_THRESHOLD_PX = 50;

export function isNearBottom(scrollY: number, viewportHeight: number, pageHeight: number) {
  return (
    pageHeight <= viewportHeight + FOOTER_THRESHOLD_PX ||
    scrollY + viewportHeight >= pageHeight - FOOTER_THRESHOLD_PX
  );
}

export function SiteFooter() {
  const location = useLocation();
  const contact = useShopContact();
  const visible = useNearBottom(location.pathname);

  // The footer comes in by sliding up, never by fading: text half-way through a fade is too pale
  // to read, so the footer is either wholly there (opacity 1) or wholly hidden (opacity 0).
  const slide = cn(
    "transition-transform duration-500 group-focus-within:translate-y-0",
    visible ? "translate-y-0" : "translate-y-6",
  );

  return (
    <footer
      data-visible={visible}
      className={cn(
        "group overflow-hidden border-t bg-[#1b1f2e] text-slate-200 focus-within:opacity-100",
        visible ? "opacity-100" : "opacity-0",
      )}
    >
      <div className={cn("mx-auto grid max-w-7xl gap-6 px-4 py-8 sm:grid-cols-3 sm:px-6", slide)}>
        <AboutTheShop />
        <VisitUs contact={contact} />
        {contact && contact.social.length > 0 ? <FollowUs social={contact.social} /> : null}
      </div>
      <p className={cn("border-t border-white/10 py-4 text-center text-xs text-slate-300", slide)}>
        © {new Date().getFullYear()} {SHOP.name}, {SHOP.city}, Texas
      </p>
    </footer>
  );
}

/**
 * Whether the page is scrolled to near its bottom, followed as it scrolls, resizes or grows, and
 * looked at again on another page.
 */
function useNearBottom(pathname: string) {
  // Visible until the browser says otherwise, so the footer is never lost without JavaScript.
  const [visible, setVisible] = useState(true);

  useEffect(() => {
    const update = () =>
      setVisible(
        isNearBottom(window.scrollY, window.innerHeight, document.documentElement.scrollHeight),
      );
    update();
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      observer.disconnect();
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, [pathname]);

  return visible;
}

/** The shop's name, with its returns promise and the About page. */
function AboutTheShop() {
  return (
    <div>
      <h2 className="font-semibold text-white">{SHOP.name}</h2>
      <p className="mt-2 text-sm">
        <Link to="/returns" className="underline hover:text-white">
          Free returns within 30 days
        </Link>
      </p>
      <p className="mt-2 text-sm">
        <Link to="/about" className="underline hover:text-white">
          About us
        </Link>
      </p>
    </div>
  );
}

/** Where the shop is, and how to reach it when its contact details are known. */
function VisitUs({ contact }: { contact: ShopContact | undefined }) {
  return (
    <div>
      <h2 className="font-semibold text-white">Visit us</h2>
      <address className="mt-2 flex flex-col gap-2 text-sm not-italic">
        <span className="flex gap-2">
          <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
          <span>
            <ShopAddress contact={contact} linkClassName="underline hover:text-white" />
          </span>
        </span>
        {contact ? <ReachUs contact={contact} /> : null}
      </address>
      <Link
        to="/contact"
        className="mt-3 inline-block text-sm font-medium text-amber-200 underline"
      >
        Contact Us
      </Link>
    </div>
  );
}

/** The shop's address, and a link to it on the map when its contact details are known. */
export function ShopAddress({
  contact,
  linkClassName,
}: {
  contact: ShopContact | undefined;
  linkClassName: string;
}) {
  return (
    <>
      {SHOP_ADDRESS}
      {contact ? (
        <>
          {" · "}
          <a
            href={contact.mapUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClassName}
          >
            Map
            <span className="sr-only"> of {SHOP_ADDRESS} (opens in a new tab)</span>
          </a>
        </>
      ) : null}
    </>
  );
}

/** The shop's phone, e-mail and opening hours, each beside its icon. */
function ReachUs({ contact }: { contact: ShopContact }) {
  return (
    <>
      <span className="flex gap-2">
        <Phone aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
        <a href={telHref(contact.phone)} className="underline hover:text-white">
          {contact.phone}
        </a>
      </span>
      <span className="flex gap-2">
        <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
        <a href={`mailto:${contact.email}`} className="underline hover:text-white">
          {contact.email}
        </a>
      </span>
      <span className="flex gap-2">
        <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
        <span>{contact.hours}</span>
      </span>
    </>
  );
}

/** The shop's own profiles elsewhere, each opening in a new tab. */
function FollowUs({ social }: { social: ShopContact["social"] }) {
  return (
    <div>
      <h2 className="font-semibold text-white">Follow us</h2>
      <ul className="mt-2 flex flex-col gap-1 text-sm">
        {social.map((link) => (
          <li key={link.name}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              className="underline hover:text-white"
            >
              {link.name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
