import { useEffect } from "react";
import { useLocation } from "react-router";
import type { toast as sonnerToast, ToasterProps } from "sonner";
import { toasterPart } from "./lazy-parts.ts";
import { useOnDemand } from "./on-demand.ts";

type ToastOptions = {
  /** A toast with the id of one still showing replaces it. */
  id?: string | number;
  description?: string;
  /** Milliseconds; 4 s unless given. */
  duration?: number;
  /** A button on the toast, such as 'View cart'. */
  action?: { label: string; onClick: () => void };
};

type ToastKind = "message" | "success" | "error";

let toasterPlaced!: () => void;
const toasterOnPage = new Promise<void>((resolve) => (toasterPlaced = resolve));

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

let library: Promise<{ toast: typeof sonnerToast }> | null = null;

/**
 * The toast library, once its Toaster is on the page and has been drawn: the (empty) live region
 * must be known to assistive technology before the first toast is added to it, or that toast
 * would not be read out.
 */
function toastLibrary() {
  toasterPart.preload();
  library ??= Promise.all([import("sonner"), toasterOnPage]).then(async ([sonner]) => {
    await nextFrame();
    await nextFrame();
    return sonner;
  });
  return library;
}

function show(kind: ToastKind, title: string, options?: ToastOptions) {
  toastLibrary()
    .then(({ toast: sonner }) => sonner[kind](title, options))
    .catch((error: unknown) => {
      library = null;
      console.error("Could not show a message", error);
    });
}

/**
 * The shop's toasts. The toast library and its Toaster are fetched with the first toast, so
 * pages that show none never load them.
 */
export const toast = {
  message: (title: string, options?: ToastOptions) => show("message", title, options),
  success: (title: string, options?: ToastOptions) => show("success", title, options),
  error: (title: string, options?: ToastOptions) => show("error", title, options),
};

/**
 * Where toasts appear, from the first one on. The back office's pages show toasts through the
 * library directly, so there the Toaster is placed from the start.
 */
export function Toasts(props: Pick<ToasterProps, "position" | "offset" | "mobileOffset">) {
  const part = useOnDemand(toasterPart);
  const { pathname } = useLocation();
  const backOffice = pathname === "/admin" || pathname.startsWith("/admin/");
  useEffect(() => {
    if (backOffice) toasterPart.preload();
  }, [backOffice]);
  useEffect(() => {
    if (part) toasterPlaced();
  }, [part]);
  return part ? <part.Toaster {...props} /> : null;
}
