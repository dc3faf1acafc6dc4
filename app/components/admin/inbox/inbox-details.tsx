import { Link } from "react-router";
import type { InboxItemShown } from "./inbox-item.ts";

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted-foreground">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** Who wrote, when, and what: the message, or the repair request and its appointment. */
export function InboxDetails({ loaderData }: { loaderData: InboxItemShown }) {
  const { contact, repair } = loaderData;
  const email = <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>;
  return (
    <dl className="divide-y rounded-xl border bg-card px-4">
      {contact ? (
        <>
          <Detail term="From">{loaderData.name}</Detail>
          <Detail term="E-mail">{email}</Detail>
          <Detail term="Received">{loaderData.received}</Detail>
          <Detail term="Message">
            <span className="whitespace-pre-wrap">{contact.message}</span>
          </Detail>
        </>
      ) : null}
      {repair ? (
        <>
          <Detail term="Service">{repair.serviceType}</Detail>
          <Detail term="Appointment">{repair.slot}</Detail>
          <Detail term="Name">{loaderData.name}</Detail>
          <Detail term="E-mail">{email}</Detail>
          <Detail term="Phone">
            <a href={`tel:${repair.phone.replace(/[^\d+]/g, "")}`}>{repair.phone}</a>
          </Detail>
          <Detail term="Issue">
            <span className="whitespace-pre-wrap">{repair.issue}</span>
          </Detail>
          <Detail term="Booked at">{loaderData.received}</Detail>
          {repair.ticket ? (
            <Detail term="Repair ticket">
              <Link to={`/admin/repairs/${repair.ticket}`} className="text-primary underline">
                {repair.ticket}
              </Link>
            </Detail>
          ) : null}
          <Detail term="Status">
            {repair.cancelled
              ? `Cancelled by ${repair.cancelled.by} on ${repair.cancelled.at}`
              : repair.started
                ? "Booked (the appointment time has come)"
                : "Booked"}
          </Detail>
        </>
      ) : null}
    </dl>
  );
}
