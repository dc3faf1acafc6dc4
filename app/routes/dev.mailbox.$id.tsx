import { data, Link } from "react-router";
import { linksIn, readMail, requireDevMailbox } from "#app/domain/mail/mailbox.server.ts";
import type { Route } from "./+types/dev.mailbox.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.message.subject} (development mailbox)` : "Message" },
  { name: "description", content: "A message kept in the development mailbox." },
  { name: "robots", content: "noindex" },
];

export async function loader({ params, request }: Route.LoaderArgs) {
  const env = requireDevMailbox(request);
  const message = await readMail(env.DATA_DIR, params.id);
  if (!message) throw data(null, { status: 404 });
  return { message, links: linksIn(message.text) };
}

export default function DevMailboxMessage({ loaderData }: Route.ComponentProps) {
  const { message, links } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <Link to="/dev/mailbox" className="text-sm font-medium text-primary underline">
        ← All messages
      </Link>
      <h1 className="mt-4 text-2xl font-bold">{message.subject}</h1>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="font-medium">From</dt>
        <dd>{message.from}</dd>
        <dt className="font-medium">To</dt>
        <dd>{message.to}</dd>
      </dl>
      {links.length > 0 ? (
        <section aria-labelledby="links-heading" className="mt-6">
          <h2 id="links-heading" className="font-semibold">
            Links in this message
          </h2>
          <ul className="mt-2 list-disc pl-6">
            {links.map((link) => (
              <li key={link}>
                <a href={link} className="break-all text-primary underline">
                  {link}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <h2 className="mt-6 font-semibold">As sent</h2>
      <iframe
        title={`Message: ${message.subject}`}
        srcDoc={message.html}
        sandbox=""
        className="mt-2 h-[600px] w-full rounded-xl border bg-white"
      />
      <details className="mt-4">
        <summary className="cursor-pointer font-medium">Plain-text version</summary>
        <pre className="mt-2 overflow-x-auto rounded-md bg-muted p-4 text-sm whitespace-pre-wrap">
          {message.text}
        </pre>
      </details>
    </div>
  );
}
