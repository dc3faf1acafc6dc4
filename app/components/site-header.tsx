import { Film, ShoppingCart } from "#app/components/ui/icons.tsx";
import { Link } from "react-router";
import { SHOP } from "#app/lib/site.ts";
import { useCart } from "./cart-provider.tsx";
import { cartDrawerPart } from "./lazy-parts.ts";
import { intentToOpen } from "./on-demand.ts";
import { SearchBox } from "./search-box.tsx";
import { SideMenu } from "./side-menu.tsx";
import { Button } from "./ui/button.tsx";
import { UserMenu } from "./user-menu.tsx";

export function SiteHeader() {
  const cart = useCart();
  return (
    <header className="sticky top-0 z-40 border-b bg-[#1b1f2e] text-white">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:gap-4 sm:px-6"
      >
        <SideMenu />
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-md font-bold tracking-tight"
        >
          <Film aria-hidden="true" className="size-6 text-amber-300" />
          <span className="hidden text-lg sm:inline">{SHOP.name}</span>
          <span className="sr-only sm:hidden">{SHOP.name} home</span>
        </Link>
        <div className="ml-auto flex items-center gap-1 sm:gap-3">
          <SearchBox />
          <UserMenu />
          <Button
            variant="ghost"
            className="text-white hover:bg-white/10 hover:text-white"
            {...intentToOpen(cartDrawerPart)}
            onClick={() => cart.setDrawerOpen(true)}
            aria-label={`Cart (${cart.totalItems})`}
          >
            <ShoppingCart aria-hidden="true" />
            <span aria-hidden="true">({cart.totalItems})</span>
          </Button>
        </div>
      </nav>
    </header>
  );
}
