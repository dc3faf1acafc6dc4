import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import {
  CART_STORAGE_KEY,
  cartReducer,
  cartTotalCents,
  parseStoredCart,
  repriceLines,
  totalItems,
  type CartAction,
  type CartLine,
  type CartProduct,
  type CurrentProduct,
} from "#app/lib/cart.ts";
import { toast } from "./toasts.tsx";

type CartContextValue = {
  lines: CartLine[];
  totalItems: number;
  totalCents: number;
  /** False until the browser's stored cart has been read (it is unknown on the server). */
  ready: boolean;
  add: (product: CartProduct) => void;
  increase: (mergeKey: string) => void;
  decrease: (mergeKey: string) => void;
  remove: (mergeKey: string) => void;
  clear: () => void;
  drawerOpen: boolean;
  /** Opening remembers what had focus, so closing can give it back. */
  setDrawerOpen: (open: boolean) => void;
  /** The control the drawer was opened from, if it is still on the page (read once, on close). */
  takeDrawerOpener: () => HTMLElement | null;
};

const CartContext = createContext<CartContextValue | null>(null);

/** Every cart toast shares one id, so a new one replaces the last: one toast at a time. */
export const CART_TOAST_ID = "cart";

/**
 * Shows a cart toast in place of the last one. Sonner merges an update into the toast with the
 * same id, so every option is given here (a missing description would keep the last one's).
 */
export function showCartToast(
  title: string,
  {
    description,
    destructive = false,
    duration,
    action,
  }: {
    description?: string;
    destructive?: boolean;
    duration?: number;
    /** A button on the toast, such as 'View cart'. */
    action?: { label: string; onClick: () => void };
  } = {},
) {
  const options = { id: CART_TOAST_ID, description, duration, action };
  if (destructive) toast.error(title, options);
  else toast.message(title, options);
}

type PricesResponse = { products: CurrentProduct[]; unknown: string[] };

async function fetchCurrentPrices(lines: CartLine[]): Promise<PricesResponse> {
  const response = await fetch("/api/cart/prices", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      items: lines.map((line) => ({ kind: line.kind, serialNo: line.serialNo })),
    }),
  });
  if (!response.ok) throw new Error(`prices answered ${response.status}`);
  return (await response.json()) as PricesResponse;
}

export function CartProvider({ children }: { children: React.ReactNode }) {
  const { drawerOpen, setDrawerOpen, takeDrawerOpener } = useCartDrawer();
  const { lines, linesRef, dispatch, ready } = useStoredCart();

  const value = useMemo<CartContextValue>(
    () => ({
      lines,
      totalItems: totalItems(lines),
      totalCents: cartTotalCents(lines),
      ready,
      drawerOpen,
      setDrawerOpen,
      takeDrawerOpener,
      ...cartChanges(dispatch, linesRef, setDrawerOpen),
    }),
    [lines, ready, drawerOpen, setDrawerOpen, takeDrawerOpener, dispatch, linesRef],
  );

  return <CartContext value={value}>{children}</CartContext>;
}

/** The cart drawer: open or closed, and the control it gives focus back to when it closes. */
function useCartDrawer() {
  const [drawerOpen, setDrawerOpenState] = useState(false);
  const drawerOpener = useRef<HTMLElement | null>(null);
  /** The last control focused outside the toasts, for a drawer opened from a toast's button. */
  const lastFocusOutsideToasts = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest("[data-sonner-toaster]")) {
        lastFocusOutsideToasts.current = target;
      }
    };
    document.addEventListener("focusin", onFocusIn);
    return () => document.removeEventListener("focusin", onFocusIn);
  }, []);

  const setDrawerOpen = useCallback((open: boolean) => {
    if (open) {
      const active = document.activeElement;
      drawerOpener.current =
        active instanceof HTMLElement &&
        active !== document.body &&
        !active.closest("[data-sonner-toaster]")
          ? active
          : lastFocusOutsideToasts.current;
    }
    setDrawerOpenState(open);
  }, []);

  const takeDrawerOpener = useCallback(() => {
    const opener = drawerOpener.current;
    drawerOpener.current = null;
    return opener?.isConnected ? opener : null;
  }, []);

  return { drawerOpen, setDrawerOpen, takeDrawerOpener };
}

/**
 * The cart's lines, kept in this browser: read once mounted (empty until then, as on the server,
 * with its prices checked against the shop's), written on every change, and followed when
 * another tab changes them. `ready` says whether they have been read.
 */
function useStoredCart() {
  const [lines, dispatch] = useReducer(cartReducer, []);
  const [ready, setReady] = useState(false);
  const linesRef = useRef(lines);
  linesRef.current = lines;

  useEffect(() => {
    const stored = parseStoredCart(window.localStorage.getItem(CART_STORAGE_KEY));
    dispatch({ type: "replace", lines: stored });
    setReady(true);
    if (stored.length === 0) return;
    fetchCurrentPrices(stored)
      .then(({ products, unknown }) => {
        // Apply to what the cart holds now: the shopper may have changed it meanwhile.
        const result = repriceLines(linesRef.current, {
          asked: stored,
          current: products,
          unknown: new Set(unknown),
        });
        dispatch({ type: "replace", lines: result.lines });
        if (result.dropped.length > 0) announceDropped(result.dropped);
      })
      .catch((error: unknown) => console.warn("Could not refresh cart prices", error));
  }, []);

  useEffect(() => {
    if (ready) window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(lines));
  }, [lines, ready]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === CART_STORAGE_KEY) {
        dispatch({ type: "replace", lines: parseStoredCart(event.newValue) });
      }
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  return { lines, linesRef, dispatch, ready };
}

/** Tells the shopper which titles of their stored cart the shop no longer sells. */
function announceDropped(dropped: CartLine[]) {
  const names = dropped.map((line) => `"${line.title}"`).join(", ");
  showCartToast("Cart updated", {
    // Longer than the usual 4 s: this tells the shopper something they did not do.
    duration: 10_000,
    description: `${names} ${dropped.length === 1 ? "is" : "are"} no longer available and ${dropped.length === 1 ? "was" : "were"} removed.`,
  });
}

/** The shopper's changes to the cart, each but clearing it said in a toast. */
function cartChanges(
  dispatch: React.Dispatch<CartAction>,
  linesRef: React.RefObject<CartLine[]>,
  setDrawerOpen: (open: boolean) => void,
): Pick<CartContextValue, "add" | "increase" | "decrease" | "remove" | "clear"> {
  const titleOf = (mergeKey: string) =>
    linesRef.current.find((line) => line.mergeKey === mergeKey)?.title ?? "";
  return {
    add: (product) => {
      dispatch({ type: "add", product });
      showCartToast("Added to cart", {
        description: `"${product.title}" is in your cart.`,
        action: { label: "View cart", onClick: () => setDrawerOpen(true) },
      });
    },
    increase: (mergeKey) => {
      showCartToast("Quantity increased", {
        description: `Added one more of "${titleOf(mergeKey)}".`,
      });
      dispatch({ type: "increase", mergeKey });
    },
    decrease: (mergeKey) => {
      showCartToast("Quantity decreased", {
        description: `Removed one of "${titleOf(mergeKey)}".`,
      });
      dispatch({ type: "decrease", mergeKey });
    },
    remove: (mergeKey) => {
      showCartToast("Removed from cart", {
        description: `"${titleOf(mergeKey)}" was removed.`,
        destructive: true,
      });
      dispatch({ type: "remove", mergeKey });
    },
    clear: () => dispatch({ type: "clear" }),
  };
}

export function useCart(): CartContextValue {
  const value = use(CartContext);
  if (!value) throw new Error("useCart must be used inside <CartProvider>");
  return value;
}
