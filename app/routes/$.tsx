import { data } from "react-router";
import { NotFound } from "#app/components/not-found.tsx";
import { pageMeta } from "#app/lib/site.ts";

export function loader() {
  throw data(null, { status: 404 });
}

export const meta = () => pageMeta("Page not found", "This page does not exist.");

export default function CatchAll() {
  return <NotFound />;
}
