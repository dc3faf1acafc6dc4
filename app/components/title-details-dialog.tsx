import { useEffect } from "react";
import { titleDetailsPart } from "./lazy-parts.ts";
import { useOnDemand } from "./on-demand.ts";

export type TitleDetails = {
  title: string;
  poster: string;
  priceCents: number;
  description: string | null;
  /** Titles with no stock cannot be added to the cart. */
  inStock: boolean;
  facts?: { label: string; value: string | number | null }[];
  href?: string;
  linkState?: unknown;
  /** Where a shopper asks to be told when it is back (regular titles only). */
  alertHref?: string;
};

export type TitleDetailsDialogProps = {
  details: TitleDetails | null;
  emptyDescription: string;
  onClose: () => void;
  onAddToCart: () => void;
};

/**
 * The detail dialog used by list rows and the Staff Picks row. It is fetched when the first
 * title is opened, or when the shopper heads for a button that opens one (`preloadTitleDetails`).
 */
export function TitleDetailsDialog(props: TitleDetailsDialogProps) {
  const part = useOnDemand(titleDetailsPart);
  const opening = props.details !== null;
  useEffect(() => {
    if (opening) titleDetailsPart.preload();
  }, [opening]);
  return part ? <part.TitleDetailsModal {...props} /> : null;
}

export const preloadTitleDetails = titleDetailsPart.preload;
