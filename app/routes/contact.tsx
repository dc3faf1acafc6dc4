import { Form, useNavigation } from "react-router";
import { FormMessage, TextareaField } from "#app/components/form-field.tsx";
import { HoneypotField, SenderFields } from "#app/components/sender-fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { contactSchema, HONEYPOT_FIELD } from "#app/domain/messages/contact-input.ts";
import { submitContactMessage } from "#app/domain/messages/contact.server.ts";
import { clientIp } from "#app/lib/client-ip.ts";
import { getEnv } from "#app/lib/env.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { useShopContact } from "#app/components/site-footer.tsx";
import { pageMeta, SHOP } from "#app/lib/site.ts";
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/contact";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () =>
  pageMeta("Contact Us", `Questions about a film, an order or a repair? Write to ${SHOP.name}.`);

type Values = { name: string; email: string; message: string };

const FAILED = "Could not submit your message. Please try again.";
const EMPTY: Values = { name: "", email: "", message: "" };
const SENT = "Thank you! Your message was sent. We will get back to you soon.";

/** Sent: the form comes back empty, under a new key so it replaces the typed one. */
const sent = () => reply.ok(SENT, { values: EMPTY, sentId: crypto.randomUUID() });

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const values: Values = {
    name: form.name ?? "",
    email: form.email ?? "",
    message: form.message ?? "",
  };
  // A bot filled the field people never see: it is told all went well, and nothing is kept.
  if (form[HONEYPOT_FIELD]) return sent();
  const parsed = contactSchema.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return reply.refused("invalid", Object.values(errors)[0] ?? "", { errors, values });
  }
  try {
    const result = await submitContactMessage(getDb(), parsed.data, {
      clientIp: clientIp(request),
      shopEmail: getEnv().SHOP_EMAIL,
    });
    if (result === "rate-limited") {
      return reply.refused(
        "rate-limited",
        "You have sent several messages already. Please try again in an hour.",
        { values },
      );
    }
    if (result === "address-rate-limited") {
      const message =
        "Several messages came from this address already. Please try again in an hour.";
      return reply.refused("rate-limited", message, { errors: { email: message }, values });
    }
  } catch (error) {
    console.error("A contact message could not be stored", error);
    return reply.refused("unavailable", FAILED, { values });
  }
  return sent();
}

export default function Contact({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const errors: Record<string, string | undefined> = errorsOf(actionData);
  const values = actionData?.values ?? EMPTY;
  const phone = useShopContact()?.phone ?? SHOP.phone;
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <h1 className="text-3xl font-bold">Contact Us</h1>
      <p className="mt-2 text-muted-foreground">
        Questions about a film, an order or a repair? Write to us and we will answer by e-mail,
        usually within a day. You can also call {phone}.
      </p>
      {actionData && !actionData.errors ? (
        <div className="mt-6">
          <FormMessage tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormMessage>
        </div>
      ) : null}
      {/* The key resets the fields after a message is sent; on errors they keep what was typed. */}
      <Form
        key={actionData && "sentId" in actionData ? actionData.sentId : "form"}
        method="post"
        noValidate
        className="mt-6 flex flex-col gap-4"
      >
        <SenderFields values={values} errors={errors} />
        <TextareaField
          label="Message"
          name="message"
          rows={6}
          required
          maxLength={5000}
          defaultValue={values.message}
          error={errors.message}
        />
        <HoneypotField id="contact-website" name={HONEYPOT_FIELD} />
        <Button type="submit" size="lg" disabled={sending}>
          {sending ? "Sending…" : "Send Message"}
        </Button>
      </Form>
    </div>
  );
}
