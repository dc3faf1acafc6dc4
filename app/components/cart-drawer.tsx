import { useRef } from "react";
import { Link, useNavigate } from "react-router";
import { CART_DRAWER_DESCRIPTION, cartDrawerTitle } from "#app/lib/cart.ts";
import { formatUsd } from "#app/lib/money.ts";
import {
  CartLineThumbnail,
  CartLineTitle,
  QuantityStepper,
  RemoveLineButton,
} from "./cart-line-controls.tsx";
import { showCartToast, useCart } from "./cart-provider.tsx";
import { Button, buttonVariants } from "./ui/button.tsx";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetFooter,
  SheetHeader,
  SheetTitle,
} from "./ui/sheet.tsx";

/** `appearAtOnce`: the drawer takes the place of its placeholder, already open on screen. */
export function CartDrawer({ appearAtOnce }: { appearAtOnce: boolean }) {
  const cart = useCart();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const close = () => cart.setDrawerOpen(false);
  return (
    <Sheet open={cart.drawerOpen} onOpenChange={cart.setDrawerOpen} side="right">
      <SheetContent
        side="right"
        className="w-full gap-0 sm:max-w-md"
        appearAtOnce={appearAtOnce}
        // The first control in the drawer is a line's "Decrease quantity": landing there, one
        // more Enter would take a copy out. The heading says where the shopper is instead.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          heading.current?.focus();
        }}
        // Opened from code (header button, toast), so give focus back to where it came from.
        onCloseAutoFocus={(event) => {
          const opener = cart.takeDrawerOpener();
          if (opener) {
            event.preventDefault();
            opener.focus();
          }
        }}
      >
        <SheetHeader className="border-b">
          <SheetTitle ref={heading} tabIndex={-1}>
            {cartDrawerTitle(cart.totalItems)}
          </SheetTitle>
          <SheetDescription className="sr-only">{CART_DRAWER_DESCRIPTION}</SheetDescription>
        </SheetHeader>
        <div className="flex-1 overflow-y-auto p-4">
          {cart.lines.length === 0 ? (
            <p className="py-10 text-center text-muted-foreground">Your cart is empty.</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {cart.lines.map((line) => (
                <li key={line.lineId} className="flex gap-3 border-b pb-4 last:border-b-0">
                  <CartLineThumbnail line={line} className="w-16" onNavigate={close} />
                  <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
                    <p>
                      <CartLineTitle line={line} onNavigate={close} />
                    </p>
                    {line.disc ? <p className="text-muted-foreground">{line.disc}</p> : null}
                    <p>Price: {formatUsd(line.priceCents)}</p>
                    <QuantityStepper line={line} />
                    <p>Item Total: {formatUsd(line.priceCents * line.quantity)}</p>
                    <RemoveLineButton line={line} className="self-start" />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
        <SheetFooter className="border-t">
          {cart.lines.length === 0 ? (
            <Link to="/movies" onClick={close} className={buttonVariants({ size: "lg" })}>
              Continue shopping
            </Link>
          ) : (
            <>
              <p className="text-lg font-semibold">Total: {formatUsd(cart.totalCents)}</p>
              <Button
                size="lg"
                onClick={() => {
                  close();
                  navigate("/cart");
                  showCartToast("Heading to cart page…");
                }}
              >
                Go to Cart Page
              </Button>
            </>
          )}
        </SheetFooter>
      </SheetContent>
    </Sheet>
  );
}
