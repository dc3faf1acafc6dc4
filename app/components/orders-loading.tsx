import { useNavigation } from "react-router";

/** True while the browser is on its way to a page showing orders (`/orders`, or a section). */
export function useOrdersLoading(pathname: string, section?: string) {
  const navigation = useNavigation();
  if (navigation.state !== "loading" || navigation.location.pathname !== pathname) return false;
  return (
    section === undefined ||
    new URLSearchParams(navigation.location.search).get("section") === section
  );
}

/** The spec's loading text, kept in a live region so it is announced. */
export function OrdersLoading({ loading }: { loading: boolean }) {
  return (
    <p
      role="status"
      aria-live="polite"
      className={loading ? "mt-6 py-2 text-sm font-medium" : "sr-only"}
    >
      {loading ? "Loading orders…" : ""}
    </p>
  );
}
