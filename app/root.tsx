import { isRouteErrorResponse, Links, Meta, Outlet, Scripts } from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { CartProvider } from "./components/cart-provider.tsx";
import { NotFound } from "./components/not-found.tsx";
import { ScrollRestoration } from "./components/scroll-restoration.tsx";
import { SiteFrame } from "./components/site-frame.tsx";
import { getSignedInUser } from "./domain/accounts/session.server.ts";
import { shopContact } from "./lib/env.server.ts";
import { answerServiceUnavailable } from "./db/service-unavailable.server.ts";
import { SHOP } from "./lib/site.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** A request that could not reach the database is answered 503 as a whole (DESIGN §3.14). */
export const middleware: Route.MiddlewareFunction[] = [answerServiceUnavailable];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSignedInUser(request);
  return {
    user: user ? { displayName: user.displayName, role: user.role } : null,
    shop: shopContact(),
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  // Marks the page as interactive, for people's tools and the browser tests alike.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1b1f2e" />
        <Meta />
        <Links />
      </head>
      <body>
        <CartProvider>
          <SiteFrame>{children}</SiteFrame>
        </CartProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <>
        <title>{`Page not found | ${SHOP.name}`}</title>
        <NotFound />
      </>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // On the server, the entry's handleError has logged it already.
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  if (status === 503) {
    return (
      <>
        <title>{`Please try again in a moment | ${SHOP.name}`}</title>
        <section className="mx-auto max-w-xl px-4 py-16 text-center">
          <h1 className="text-3xl font-bold">We could not show this page right now</h1>
          <p className="mt-4 text-muted-foreground">
            The shop is catching its breath. Please try again in a moment.
          </p>
          <a className="mt-6 inline-block font-medium text-primary underline" href="">
            Try again
          </a>
        </section>
      </>
    );
  }
  return (
    <>
      <title>{`Something went wrong | ${SHOP.name}`}</title>
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">Something went wrong</h1>
        <p className="mt-4 text-muted-foreground">
          {status === 400
            ? "That request could not be understood."
            : "We could not show this page right now. Please try again in a moment."}
        </p>
        <a className="mt-6 inline-block font-medium text-primary underline" href="/">
          Back to the home page
        </a>
      </section>
    </>
  );
}
