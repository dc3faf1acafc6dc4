import { Minus, Plus, Trash2 } from "lucide-react";
import { productLabel, type CartLine } from "#app/lib/cart.ts";
import { cn } from "#app/lib/cn.ts";
import { useCart } from "./cart-provider.tsx";
import { Button } from "./ui/button.tsx";

/** Minus / quantity / plus for one cart line, named for assistive technology. */
export function QuantityStepper({ line }: { line: CartLine }) {
  const cart = useCart();
  const name = productLabel(line.title, line.disc);
  return (
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
  );
}

export function RemoveLineButton({ line, className }: { line: CartLine; className?: string }) {
  const cart = useCart();
  return (
    <Button
      variant="link"
      className={cn("h-auto p-0 text-destructive", className)}
      onClick={() => cart.remove(line.mergeKey)}
      aria-label={`Remove Item: ${productLabel(line.title, line.disc)}`}
    >
      <Trash2 aria-hidden="true" />
      Remove Item
    </Button>
  );
}
