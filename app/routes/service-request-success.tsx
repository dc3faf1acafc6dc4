import { CircleCheck, Mail } from "#app/components/ui/icons.tsx";
import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { SUCCESS_AWAITING_EMAIL } from "#app/domain/repairs/booking-input.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/service-request-success";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Request Submitted!", "Your repair appointment request is in."),
  { name: "robots", content: "noindex" },
];

export function loader({ request }: Route.LoaderArgs) {
  const [key, value] = SUCCESS_AWAITING_EMAIL.split("=") as [string, string];
  return {
    awaitingEmail: new URL(request.url).searchParams.get(key) === value,
    confirmMinutes: getEnv().REPAIR_CONFIRM_MINUTES,
  };
}

export default function ServiceRequestSuccess({ loaderData }: Route.ComponentProps) {
  const Icon = loaderData.awaitingEmail ? Mail : CircleCheck;
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <Icon aria-hidden="true" className="mx-auto size-16 text-success" />
      <h1 className="mt-4 text-3xl font-bold">Request Submitted!</h1>
      {loaderData.awaitingEmail ? (
        <>
          <p className="mt-4 text-lg font-semibold">Check your e-mail to confirm the booking.</p>
          <p className="mt-2 text-muted-foreground">
            We sent you a link. The time is held for {loaderData.confirmMinutes} minutes; once you
            confirm, we send the details and a calendar invitation.
          </p>
        </>
      ) : (
        <p className="mt-4 text-muted-foreground">
          Your appointment is booked. We sent a confirmation e-mail with a calendar invitation and a
          link to cancel if your plans change.
        </p>
      )}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonVariants({ size: "lg" })}>
          Home
        </Link>
        <Link
          to="/service-request-form"
          className={buttonVariants({ size: "lg", variant: "outline" })}
        >
          Book Another Service
        </Link>
      </div>
    </div>
  );
}
