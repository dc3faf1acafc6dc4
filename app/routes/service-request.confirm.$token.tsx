import { data, Form, Link, useNavigation } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { confirmationState, confirmBooking } from "#app/domain/repairs/bookings.server.ts";
import { bookingRules } from "#app/domain/repairs/rules.server.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/service-request.confirm.$token";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Confirm your appointment", "Confirm a repair appointment."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const EXPIRED =
  "This confirmation link has expired, so the time was not kept. Please book again, or call us.";
const INVALID =
  "This confirmation link is not valid or was already used. If you confirmed your booking, your confirmation e-mail has the details.";

/**
 * The link in the e-mail opens this page; only the button confirms. Mail scanners open links,
 * and a scanner must not confirm, for the owner of the address, a booking someone else made.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const state = await confirmationState(getDb(), params.token, {
    now: new Date(),
    rules: bookingRules(),
  });
  if (state.state === "awaiting") return { ...state, message: null };
  return data(
    { state: state.state, message: state.state === "expired" ? EXPIRED : INVALID },
    { status: state.state === "expired" ? 410 : 404 },
  );
}

export async function action({ params }: Route.ActionArgs) {
  const env = getEnv();
  const result = await confirmBooking(getDb(), params.token, {
    now: new Date(),
    rules: bookingRules(env),
    shopEmail: env.SHOP_EMAIL,
    publicUrl: publicUrl(env),
    secret: authSecret(env),
  });
  if (!result.ok) {
    return reply.refused(result.reason === "expired" ? "expired" : "not-found", result.message);
  }
  return reply.ok(
    "Your appointment is confirmed. We sent the details and a calendar invitation to your e-mail.",
  );
}

export default function ConfirmAppointment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const answer =
    actionData ?? (loaderData.message ? { ok: false, message: loaderData.message } : null);
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Confirm your appointment</h1>
      {answer ? (
        <>
          <div className="mt-6">
            <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
          </div>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/" className={buttonVariants({ size: "lg", variant: "outline" })}>
              Home
            </Link>
            {answer.ok ? null : (
              <Link to="/service-request-form" className={buttonVariants({ size: "lg" })}>
                Book again
              </Link>
            )}
          </div>
        </>
      ) : loaderData.state === "awaiting" ? (
        <>
          <p className="mt-4 text-muted-foreground">
            Keep your {loaderData.serviceType} appointment on {loaderData.when}?
          </p>
          <Form method="post" className="mt-6">
            <Button type="submit" size="lg" disabled={navigation.state !== "idle"}>
              Confirm appointment
            </Button>
          </Form>
        </>
      ) : null}
    </div>
  );
}
