import { useContext, useEffect, useState } from "react";
import { UNSAFE_DataRouterContext, useLocation, useNavigation } from "react-router";
import { CART_DRAWER_DESCRIPTION, cartDrawerTitle } from "#app/lib/cart.ts";
import { cn } from "#app/lib/cn.ts";
import { useCart } from "./cart-provider.tsx";
import { cartDrawerPart, pageFeedbackPart } from "./lazy-parts.ts";
import { NavigationFocus } from "./navigation-focus.tsx";
import { NavigationProgress, useRefreshingSamePage } from "./navigation-progress.tsx";
import { useOnDemand } from "./on-demand.ts";
import { OrdersLoading } from "./orders-loading.tsx";
import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";
import { Toasts } from "./toasts.tsx";
import { SheetPlaceholder } from "./ui/sheet-placeholder.tsx";

export function SiteFrame({ children }: { children: React.ReactNode }) {
  const refreshing = useRefreshingSamePage();
  const { drawerOpen } = useCart();
  const navigation = useNavigation();
  const location = useLocation();
  // My Orders from another page: the old page stays until the orders arrive, so say so on it.
  const openingOrders =
    navigation.state === "loading" &&
    navigation.location.pathname === "/orders" &&
    location.pathname !== "/orders";
  return (
    <div className="flex min-h-dvh flex-col">
      <NavigationProgress />
      {/* Before NavigationFocus: where a form's answer takes focus, the heading does not. */}
      <PageFeedbackOnDemand />
      <NavigationFocus />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SiteHeader />
      {/* A new filter, sort or page of the same list: the old one is dimmed until it arrives. */}
      <main
        id="main"
        tabIndex={-1}
        aria-busy={refreshing || undefined}
        className={cn(
          "flex-1 outline-none transition-opacity",
          refreshing && "opacity-60 [transition-delay:150ms]",
        )}
      >
        {openingOrders ? (
          <div className="sticky top-16 z-30 mx-auto max-w-4xl bg-background/95 px-4 sm:px-6">
            <OrdersLoading loading />
          </div>
        ) : null}
        {children}
      </main>
      <SiteFooter />
      <CartDrawerOnDemand />
      {/*
        The drawer's total and buttons are at its bottom: while it is open, toasts show at the
        top, below the drawer's heading and close button, never over its actions.
      */}
      <Toasts
        position={drawerOpen ? "top-center" : "bottom-right"}
        offset={drawerOpen ? { top: 72 } : undefined}
        mobileOffset={drawerOpen ? { top: 72 } : undefined}
      />
    </div>
  );
}

/** What the page says back to presses and forms' answers, fetched once the page has loaded. */
function PageFeedbackOnDemand() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const part = useOnDemand(pageFeedbackPart);
  useEffect(() => pageFeedbackPart.preload(), []);
  return part && router ? <part.PageFeedback router={router} /> : null;
}

/**
 * The cart drawer is fetched when it is first opened (or the Cart button is headed for). Opened
 * before it has arrived, a placeholder with the drawer's title shows at once and gives way to the
 * drawer when its code is there.
 */
function CartDrawerOnDemand() {
  const cart = useCart();
  const open = cart.drawerOpen;
  const part = useOnDemand(cartDrawerPart);
  const [openedEarly, setOpenedEarly] = useState(false);
  if (open && !part && !openedEarly) setOpenedEarly(true);
  if (!open && openedEarly) setOpenedEarly(false);
  useEffect(() => {
    if (open) cartDrawerPart.preload();
  }, [open]);
  if (part) return <part.CartDrawer appearAtOnce={openedEarly} />;
  if (!open) return null;
  return (
    <SheetPlaceholder
      side="right"
      title={cartDrawerTitle(cart.totalItems)}
      description={CART_DRAWER_DESCRIPTION}
      focusTitle
      className="w-full gap-0 sm:max-w-md"
      onClose={() => {
        const opener = cart.takeDrawerOpener();
        cart.setDrawerOpen(false);
        opener?.focus();
      }}
    >
      <p role="status" className="flex-1 p-4 py-10 text-center text-muted-foreground">
        Opening your cart…
      </p>
    </SheetPlaceholder>
  );
}
