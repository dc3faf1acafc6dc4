import { ShoppingCart } from "#app/components/ui/icons.tsx";
import { useRef } from "react";
import { Link } from "react-router";
import { formatUsd } from "#app/lib/money.ts";
import type { TitleDetailsDialogProps } from "./title-details-dialog.tsx";
import { PosterImage } from "./poster-image.tsx";
import { Button } from "./ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "./ui/dialog.tsx";

/** The detail dialog itself, fetched on demand by TitleDetailsDialog. */
export function TitleDetailsModal({
  details,
  emptyDescription,
  onClose,
  onAddToCart,
}: TitleDetailsDialogProps) {
  // Opened from state rather than a trigger, so the dialog itself gives focus back on close.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog open={details !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        showCloseButton={false}
        className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl"
        onOpenAutoFocus={() => {
          const active = document.activeElement;
          opener.current =
            active instanceof HTMLElement && active !== document.body ? active : null;
        }}
        onCloseAutoFocus={(event) => {
          const element = opener.current;
          opener.current = null;
          if (element?.isConnected) {
            event.preventDefault();
            element.focus();
          }
        }}
      >
        {details ? (
          <>
            <DialogHeader>
              <DialogTitle>{details.title}</DialogTitle>
              <DialogDescription className="sr-only">Details of {details.title}</DialogDescription>
            </DialogHeader>
            <div className="grid gap-4 sm:grid-cols-[180px_1fr]">
              <PosterImage
                src={details.poster}
                alt={`Poster of ${details.title}`}
                className="max-w-44"
              />
              <div className="flex flex-col gap-2 text-sm">
                <p className="text-lg font-semibold">{formatUsd(details.priceCents)}</p>
                {details.inStock ? null : (
                  <p className="font-medium text-destructive">
                    Out of stock
                    {details.alertHref ? (
                      <>
                        {" · "}
                        <Link
                          to={details.alertHref}
                          state={details.linkState}
                          className="text-primary underline"
                        >
                          Email me when it&apos;s back
                        </Link>
                      </>
                    ) : null}
                  </p>
                )}
                {details.facts?.length ? (
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                    {details.facts.map((fact) => (
                      <div key={fact.label} className="contents">
                        <dt className="font-medium">{fact.label}</dt>
                        <dd className="text-muted-foreground">{fact.value ?? "—"}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
                <p className="leading-relaxed">{details.description || emptyDescription}</p>
                {details.href ? (
                  <Link
                    to={details.href}
                    state={details.linkState}
                    className="font-medium text-primary underline"
                  >
                    View title page
                  </Link>
                ) : null}
              </div>
            </div>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
              <Button
                disabled={!details.inStock}
                onClick={() => {
                  onAddToCart();
                  onClose();
                }}
              >
                <ShoppingCart aria-hidden="true" />
                {details.inStock ? "Add to Cart" : "Out of stock"}
              </Button>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
