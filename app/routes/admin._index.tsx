import { requireAdmin } from "#app/domain/accounts/session.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/admin._index";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Back Office", "Manage the shop."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  return { displayName: user.displayName };
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-3xl font-bold">Back Office</h1>
      <p className="mt-2 text-muted-foreground">Signed in as {loaderData.displayName}.</p>
    </>
  );
}
