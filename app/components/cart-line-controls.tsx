import { Minus, Plus, Trash } from "#app/components/ui/icons.tsx";
import { Link } from "react-router";
import { productLabel, type CartLine } from "#app/lib/cart.ts";
import { cn } from "#app/lib/cn.ts";
import { useCart } from "./cart-provider.tsx";
import { PosterImage } from "./poster-image.tsx";
import { Button } from "./ui/button.tsx";

/** The title page of what a cart line holds. */
export function cartLineHref(line: Pick<CartLine, "kind" | "serialNo">): string {
  return line.kind === "adult" ? `/adult-movies/${line.serialNo}` : `/movies/${line.serialNo}`;
}

/**
 * A cart line's poster, whole (it keeps its 2:3 shape instead of stretching to the line's
 * height), linking to the title page. The line's title is the link people read and tab to, so
 * this one is left out of the tab order and the accessibility tree.
 */
export function CartLineThumbnail({
  line,
  className,
  onNavigate,
}: {
  line: CartLine;
  className?: string;
  onNavigate?: () => void;
}) {
  return (
    <Link
      to={cartLineHref(line)}
      onClick={onNavigate}
      tabIndex={-1}
      aria-hidden="true"
      className={cn("block shrink-0 self-start", className)}
    >
      <PosterImage src={line.posterUrl} alt="" sizes="80px" />
    </Link>
  );
}

/** A cart line's title, linking to the title page. */
export function CartLineTitle({ line, onNavigate }: { line: CartLine; onNavigate?: () => void }) {
  return (
    <Link
      to={cartLineHref(line)}
      onClick={onNavigate}
      className="font-semibold underline-offset-4 hover:underline"
    >
      {line.title}
    </Link>
  );
}

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
      className={cn("h-auto py-0 text-destructive", className)}
      onClick={() => cart.remove(line.mergeKey)}
      aria-label={`Remove Item: ${productLabel(line.title, line.disc)}`}
    >
      <Trash aria-hidden="true" />
      Remove Item
    </Button>
  );
}
