import { onDemand } from "./on-demand.ts";

/*
 * The parts of the page that are fetched on demand rather than with the first load: each is
 * needed only once the shopper opens it, and most visits never do. The cart drawer and the side
 * menu answer a tap at once all the same: until their code is there, a placeholder sheet
 * (ui/sheet-placeholder.tsx) opens in their place.
 */

export const cartDrawerPart = onDemand(() => import("./cart-drawer.tsx"));

export const sideMenuPart = onDemand(() => import("./side-menu-sheet.tsx"));

export const userMenuPart = onDemand(() => import("./user-menu-dropdown.tsx"));

export const titleDetailsPart = onDemand(() => import("./title-details-modal.tsx"));

export const toasterPart = onDemand(() => import("./ui/sonner.tsx"));

/** What the page says back to presses and forms' answers: fetched once the page has loaded. */
export const pageFeedbackPart = onDemand(() => import("./page-feedback.tsx"));
