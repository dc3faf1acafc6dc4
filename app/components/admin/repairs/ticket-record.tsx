import { EstimateTable, type EstimateShown } from "#app/components/repair-estimate.tsx";
import { Detail, Section } from "./ticket-section.tsx";

/** The ticket's customer and device as the page shows them. */
export type TicketShown = {
  name: string;
  email: string;
  phone: string;
  serviceType: string;
  device: string;
  serial: string | null;
  problem: string;
  condition: string;
  accessories: string | null;
  promised: string;
  paid: string | null;
  difference: string | null;
};

export type TicketPhoto = { id: number; src: string; alt: string; width: number; height: number };

export type EstimateRecord = EstimateShown & {
  id: number;
  state: string;
  sent: string;
  decided: string | null;
  note: string | null;
};

export type HistoryEvent = {
  id: number;
  when: string;
  from: string | null;
  to: string;
  by: string;
  note: string | null;
  changes: { field: string; from: string; to: string }[] | undefined;
};

/** Who the ticket is for and what was checked in. */
export function TicketDetails({ ticket }: { ticket: TicketShown }) {
  return (
    <Section id="ticket-details" title="Customer and device">
      <dl className="divide-y">
        <Detail term="Customer">{ticket.name}</Detail>
        <Detail term="E-mail">
          <a href={`mailto:${ticket.email}`}>{ticket.email}</a>
        </Detail>
        <Detail term="Phone">
          <a href={`tel:${ticket.phone.replace(/[^\d+]/g, "")}`}>{ticket.phone}</a>
        </Detail>
        <Detail term="Service">{ticket.serviceType}</Detail>
        <Detail term="Device">{ticket.device}</Detail>
        <Detail term="Serial / IMEI">{ticket.serial ?? "Not given"}</Detail>
        <Detail term="Problem">{ticket.problem}</Detail>
        <Detail term="Condition">{ticket.condition}</Detail>
        <Detail term="Accessories">{ticket.accessories || "None"}</Detail>
        <Detail term="Promised">{ticket.promised}</Detail>
        {ticket.paid ? <Detail term="Paid">{ticket.paid}</Detail> : null}
        {ticket.difference ? <Detail term="Difference">{ticket.difference}</Detail> : null}
      </dl>
    </Section>
  );
}

export function Photos({ photos }: { photos: TicketPhoto[] }) {
  if (photos.length === 0) return null;
  return (
    <Section id="ticket-photos" title="Intake photos">
      <ul className="flex flex-wrap gap-3">
        {photos.map((photo) => (
          <li key={photo.id}>
            {/* The full photo, to zoom into a scratch or a serial plate. */}
            <a href={photo.src} className="block">
              <img
                src={photo.src}
                alt={photo.alt}
                width={photo.width}
                height={photo.height}
                loading="lazy"
                className="h-32 w-auto rounded-md border object-cover"
              />
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Every estimate sent, newest last, with what the customer decided. */
export function Estimates({ estimates }: { estimates: EstimateRecord[] }) {
  if (estimates.length === 0) return null;
  return (
    <Section id="ticket-estimates" title="Estimates">
      <ol className="flex flex-col gap-5">
        {estimates.map((estimate) => (
          <li key={estimate.id}>
            <h3 className="font-medium">
              Estimate {estimate.version}: {estimate.state}
            </h3>
            <p className="text-sm text-muted-foreground">
              Sent {estimate.sent}
              {estimate.decided ? ` · ${estimate.state} ${estimate.decided}` : ""}
            </p>
            {estimate.note ? <p className="mt-1 text-sm">Note: {estimate.note}</p> : null}
            <div className="mt-2">
              <EstimateTable estimate={estimate} />
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** Every change of the ticket: moves, with who made them and their note, and corrections. */
export function TicketHistory({ history }: { history: HistoryEvent[] }) {
  return (
    <Section id="ticket-history" title="History">
      <ol className="flex flex-col gap-2 text-sm">
        {history.map((event) => (
          <li key={event.id}>
            <span className="text-muted-foreground">{event.when}</span>{" "}
            <span className="font-medium">
              {event.changes
                ? "Details corrected"
                : event.from
                  ? `${event.from} → ${event.to}`
                  : event.to}
            </span>{" "}
            by {event.by}
            {event.note ? <span className="text-muted-foreground"> · {event.note}</span> : null}
            {event.changes ? (
              <ul className="mt-1 ml-4 list-disc whitespace-pre-wrap">
                {event.changes.map((change) => (
                  <li key={change.field}>
                    {change.field}: {change.from} → {change.to}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </Section>
  );
}
