import { Form, useNavigation } from "react-router";
import { CheckboxField, FormMessage, TextareaField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { InboxAnswer, InboxItemShown } from "./inbox-item.ts";
import { errorsOf } from "#app/lib/answer.ts";

type Reply = { id: number; body: string; sentByName: string; sent: string };

/** The replies e-mailed so far, oldest first. */
export function Replies({ replies }: { replies: Reply[] }) {
  return (
    <section aria-labelledby="inbox-replies" className="mt-8">
      <h2 id="inbox-replies" className="text-lg font-semibold">
        Replies
      </h2>
      {replies.length ? (
        <ol className="mt-3 flex flex-col gap-3">
          {replies.map((reply) => (
            <li key={reply.id} className="rounded-xl border bg-card p-4">
              <p className="text-sm text-muted-foreground">
                {reply.sentByName} · {reply.sent}
              </p>
              <p className="mt-2 whitespace-pre-wrap">{reply.body}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-muted-foreground">No replies yet.</p>
      )}
    </section>
  );
}

/** The replies sent so far, then the form that e-mails a new one. */
export function ReplyForm({
  loaderData,
  answer,
}: {
  loaderData: Pick<InboxItemShown, "email" | "handled">;
  answer: InboxAnswer | null;
}) {
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "reply";
  const reply = answer?.intent === "reply" ? answer : null;
  const errors = errorsOf(reply);
  const values = reply?.values;
  return (
    <section aria-labelledby="inbox-reply" className="mt-8">
      <h2 id="inbox-reply" className="text-lg font-semibold">
        Reply by e-mail
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">To {loaderData.email}</p>
      {reply?.ok && reply.message ? (
        <div className="mt-3">
          <FormMessage tone="success">{reply.message}</FormMessage>
        </div>
      ) : null}
      {/* The key empties the form after a reply is sent; on errors it keeps what was typed. */}
      <Form
        key={reply?.sentId ?? "reply"}
        method="post"
        noValidate
        className="mt-3 flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="reply" />
        <TextareaField
          label="Your reply"
          name="body"
          rows={6}
          required
          maxLength={5000}
          defaultValue={values?.body}
          error={errors.body}
        />
        {loaderData.handled ? null : (
          <CheckboxField
            label="Mark as handled"
            name="markHandled"
            defaultChecked={values?.markHandled ?? true}
          />
        )}
        <div>
          <Button type="submit" disabled={sending}>
            {sending ? "Sending…" : "Send reply"}
          </Button>
        </div>
      </Form>
    </section>
  );
}
