import { Minus, Plus, Trash2 } from "lucide-react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { itemCountLabel, productLabel } from "#app/lib/cart.ts";
import { formatUsd } from "#app/lib/money.ts";
import { CART_TOAST_ID, useCart } from "./cart-provider.tsx";
import { PosterImage } from "./poster-image.tsx";
import { Button } from "./ui/button.tsx";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetFooter,
  SheetHeader,
  SheetTitle,
} from "./ui/sheet.tsx";

export function CartDrawer() {
  const cart = useCart();
  const navigate = useNavigate();
  return (
    <Sheet open={cart.drawerOpen} onOpenChange={cart.setDrawerOpen} side="right">
      <SheetContent side="right" className="w-full gap-0 sm:max-w-md">
        <SheetHeader className="border-b">
          <SheetTitle>Your Cart ({itemCountLabel(cart.totalItems)})</SheetTitle>
          <SheetDescription className="sr-only">
            Titles in your cart, with their quantities and prices
          </SheetDescription>
        </SheetHeader>
        <div className="flex-1 overflow-y-auto p-4">
          {cart.lines.length === 0 ? (
            <p className="py-10 text-center text-muted-foreground">Your cart is empty.</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {cart.lines.map((line) => {
                const name = productLabel(line.title, line.disc);
                return (
                  <li key={line.lineId} className="flex gap-3 border-b pb-4 last:border-b-0">
                    <PosterImage src={line.posterUrl} alt="" className="w-16 shrink-0" />
                    <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
                      <p className="font-semibold">{line.title}</p>
                      {line.disc ? <p className="text-muted-foreground">{line.disc}</p> : null}
                      <p>Price: {formatUsd(line.priceCents)}</p>
                      <div className="flex items-center gap-2">
                        <Button
                          variant="outline"
                          size="icon"
                          aria-label={`Decrease quantity of ${name}`}
                          onClick={() => cart.decrease(line.mergeKey)}
                        >
                          <Minus aria-hidden="true" />
                        </Button>
                        <span aria-label={`Quantity of ${name}`} className="min-w-6 text-center">
                          {line.quantity}
                        </span>
                        <Button
                          variant="outline"
                          size="icon"
                          aria-label={`Increase quantity of ${name}`}
                          onClick={() => cart.increase(line.mergeKey)}
                        >
                          <Plus aria-hidden="true" />
                        </Button>
                      </div>
                      <p>Item Total: {formatUsd(line.priceCents * line.quantity)}</p>
                      <Button
                        variant="link"
                        className="h-auto self-start p-0 text-destructive"
                        onClick={() => cart.remove(line.mergeKey)}
                        aria-label={`Remove Item: ${name}`}
                      >
                        <Trash2 aria-hidden="true" />
                        Remove Item
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <SheetFooter className="border-t">
          <p className="text-lg font-semibold">Total: {formatUsd(cart.totalCents)}</p>
          <Button
            size="lg"
            onClick={() => {
              cart.setDrawerOpen(false);
              navigate("/cart");
              toast("Heading to cart page…", { id: CART_TOAST_ID });
            }}
          >
            Go to Cart Page
          </Button>
        </SheetFooter>
      </SheetContent>
    </Sheet>
  );
}
