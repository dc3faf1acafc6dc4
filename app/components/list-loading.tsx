import { useNavigation } from "react-router";

/** The list's loading text while a new page, filter or sort is on its way. */
export function ListLoading({ pathname, text }: { pathname: string; text: string }) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === pathname;
  return (
    <p
      role="status"
      aria-live="polite"
      className={loading ? "py-2 text-sm font-medium" : "sr-only"}
    >
      {loading ? text : ""}
    </p>
  );
}
