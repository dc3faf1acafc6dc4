import { Link } from "react-router";
import { OTHER_AMOUNT_DAYS } from "#app/domain/repair-tickets/status.ts";
import { dayName, moreLink, panel, type Figures } from "./figures.ts";

function Appointments({ figures, day, label }: { figures: Figures; day: string; label: string }) {
  const time = new Intl.DateTimeFormat("en-US", {
    timeStyle: "short",
    timeZone: figures.timeZone,
  });
  const list = figures.appointments.filter((appointment) => appointment.day === day);
  return (
    <div>
      <h3 className="text-sm font-semibold">
        {label}, {dayName(day)}
      </h3>
      {list.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">No appointments.</p>
      ) : (
        <ul className="mt-1 divide-y text-sm">
          {list.map((appointment) => (
            <li key={appointment.id}>
              <Link
                to={
                  figures.mayOpenInbox
                    ? `/admin/inbox/repair/${appointment.id}`
                    : `/admin/repairs/new?booking=${appointment.id}`
                }
                className="flex flex-wrap gap-x-3 py-2 hover:underline"
              >
                <span className="w-16 shrink-0 font-medium tabular-nums">
                  {time.format(new Date(appointment.startsAt))}
                </span>
                <span>{appointment.serviceType}</span>
                <span className="text-muted-foreground">{appointment.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Today's and tomorrow's appointments, and the repair tickets that want attention. */
export function RepairPanels({ figures }: { figures: Figures }) {
  return (
    <>
      <section aria-labelledby="repairs-heading" className={`${panel} flex flex-col gap-4`}>
        <h2 id="repairs-heading" className="text-lg font-semibold">
          Repair appointments
        </h2>
        <Appointments figures={figures} day={figures.today} label="Today" />
        <Appointments figures={figures} day={figures.tomorrow} label="Tomorrow" />
      </section>

      <section aria-labelledby="tickets-heading" className={panel}>
        <h2 id="tickets-heading" className="text-lg font-semibold">
          Repair tickets
        </h2>
        <ul className="mt-2 divide-y text-sm">
          {[
            {
              label: "Ready for pickup",
              count: figures.tickets.ready,
              href: "/admin/repairs?status=ready",
            },
            {
              label: "Waiting for approval",
              count: figures.tickets.awaitingApproval,
              href: "/admin/repairs?status=estimate_sent",
            },
            { label: "Overdue", count: figures.tickets.overdue, href: "/admin/repairs" },
            {
              // Taken at the counter for another amount than approved (with a reason).
              label: `Collected for another amount, last ${OTHER_AMOUNT_DAYS} days`,
              count: figures.tickets.collectedOtherAmount,
              href: "/admin/repairs?status=collected",
            },
          ].map((row) => (
            <li key={row.label}>
              <Link to={row.href} className="flex justify-between gap-3 py-2 hover:underline">
                <span>{row.label}</span>
                <span className="font-semibold tabular-nums">
                  {row.count.toLocaleString("en-US")}
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <Link to="/admin/repairs" className={moreLink}>
          Open the repair board
        </Link>
      </section>
    </>
  );
}
