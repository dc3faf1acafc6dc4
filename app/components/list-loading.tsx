import { useNavigation } from "react-router";

/**
 * The list's loading text while a new page, filter or sort is on its way. It sticks under the
 * header, so a shopper who pressed a page number at the bottom of the list sees it too.
 */
export function ListLoading({ pathname, text }: { pathname: string; text: string }) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === pathname;
  return (
    <p
      role="status"
      aria-live="polite"
      className={
        loading
          ? "sticky top-16 z-30 -mx-4 bg-background/95 px-4 py-2 text-sm font-medium shadow-sm sm:-mx-6 sm:px-6"
          : "sr-only"
      }
    >
      {loading ? text : ""}
    </p>
  );
}
