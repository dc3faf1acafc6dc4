import { ShieldAlert } from "#app/components/ui/icons.tsx";
import { Form, Link, redirect } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { confirmAge, isAgeVerified, safeReturnTo } from "#app/domain/age-gate/age-gate.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/age-check";
import { readForm } from "#app/lib/request.server.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Age check", "The adult catalogue is only for visitors aged 18 or older."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get("returnTo"));
  if (await isAgeVerified(request)) throw redirect(returnTo);
  return { returnTo };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  return confirmAge(request, form.returnTo ?? "");
}

export default function AgeCheck({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-lg px-4 py-16 text-center">
      <ShieldAlert aria-hidden="true" className="mx-auto size-12 text-primary" />
      <h1 className="mt-4 text-3xl font-bold">Adults only</h1>
      <p className="mt-4 leading-relaxed text-muted-foreground">
        The adult catalogue is for visitors aged 18 or older. Please confirm your age to continue.
        Buying an adult title also needs an account whose date of birth shows you are 18 or older.
      </p>
      <Form method="post" className="mt-8 flex flex-wrap justify-center gap-3">
        <input type="hidden" name="returnTo" value={loaderData.returnTo} />
        <Button type="submit" size="lg">
          I am 18 or older
        </Button>
        <Link to="/" className={buttonVariants({ size: "lg", variant: "outline" })}>
          Take me back
        </Link>
      </Form>
    </section>
  );
}
