import { CircleCheck } from "#app/components/ui/icons.tsx";
import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/service-request-success";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Request Submitted!", "Your repair appointment is booked."),
  { name: "robots", content: "noindex" },
];

export default function ServiceRequestSuccess() {
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <CircleCheck aria-hidden="true" className="mx-auto size-16 text-success" />
      <h1 className="mt-4 text-3xl font-bold">Request Submitted!</h1>
      <p className="mt-4 text-muted-foreground">
        Your appointment is booked. We sent a confirmation e-mail with a calendar invitation and a
        link to cancel if your plans change.
      </p>
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
