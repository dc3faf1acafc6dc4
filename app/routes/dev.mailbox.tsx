import { Link } from "react-router";
import { listMail, requireDevMailbox } from "#app/domain/mail/mailbox.server.ts";
import type { Route } from "./+types/dev.mailbox";

export const meta: Route.MetaFunction = () => [
  { title: "Development mailbox" },
  { name: "description", content: "E-mail the shop would have sent, kept locally." },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const env = requireDevMailbox(request);
  const messages = await listMail(env.DATA_DIR);
  return {
    messages: messages.map(({ id, to, subject, sentAt }) => ({ id, to, subject, sentAt })),
  };
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Development mailbox</h1>
      <p className="mt-2 text-muted-foreground">
        No SMTP_URL is set, so e-mail the shop sends is kept here instead. This page does not exist
        in production.
      </p>
      {loaderData.messages.length === 0 ? (
        <p className="mt-8">No messages yet.</p>
      ) : (
        <ul className="mt-8 divide-y rounded-xl border bg-card">
          {loaderData.messages.map((message) => (
            <li key={message.id}>
              <Link
                to={`/dev/mailbox/${message.id}`}
                className="flex flex-wrap justify-between gap-2 p-4 hover:bg-accent"
              >
                <span>
                  <span className="block font-semibold">{message.subject}</span>
                  <span className="text-sm text-muted-foreground">To: {message.to}</span>
                </span>
                <time className="text-sm text-muted-foreground" dateTime={message.sentAt}>
                  {new Date(message.sentAt).toLocaleString("en-US", { timeZone: "UTC" })} UTC
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
