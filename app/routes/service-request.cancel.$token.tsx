import { Form, Link, useNavigation } from "react-router";
import { FormMessage } from "#app/components/form-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { cancelAppointment } from "#app/domain/repairs/bookings.server.ts";
import { bookingRules } from "#app/domain/repairs/rules.server.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/service-request.cancel.$token";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Cancel your appointment", "Cancel a repair appointment."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

/**
 * The link in the confirmation e-mail opens this page; only the button cancels (mail scanners
 * open links, and an opened link must not cancel anything).
 */
export async function action({ params }: Route.ActionArgs) {
  const env = getEnv();
  const result = await cancelAppointment(getDb(), params.token, {
    secret: authSecret(env),
    now: new Date(),
    rules: bookingRules(env),
    shopEmail: env.SHOP_EMAIL,
  });
  if (!result.ok) {
    // A link that names no booking is wrong input; a booking that has begun is past cancelling.
    return reply.refused(result.reason === "started" ? "conflict" : "invalid", result.message);
  }
  return reply.ok("Your appointment is cancelled. The time is free for others now.");
}

export default function CancelAppointment({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Cancel your appointment</h1>
      {actionData ? (
        <div className="mt-6">
          <FormMessage tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormMessage>
        </div>
      ) : (
        <>
          <p className="mt-4 text-muted-foreground">
            Cancel the repair appointment from your confirmation e-mail? Walk-ins stay welcome.
          </p>
          <Form method="post" className="mt-6 flex flex-wrap gap-3">
            <Button
              type="submit"
              variant="destructive"
              size="lg"
              disabled={navigation.state !== "idle"}
            >
              Cancel appointment
            </Button>
            <Link to="/" className={buttonVariants({ size: "lg", variant: "outline" })}>
              Keep it
            </Link>
          </Form>
        </>
      )}
    </div>
  );
}
