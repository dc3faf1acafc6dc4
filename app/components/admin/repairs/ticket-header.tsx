import { Link } from "react-router";
import { BackLink } from "#app/components/back-link.tsx";
import { FormMessage } from "#app/components/form-field.tsx";
import { RepairStatusBadge } from "#app/components/repair-status-badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import type { TicketStatus } from "#app/domain/repair-tickets/status.ts";

/** The ticket's heading, status and the pages printed or opened from it. */
export function TicketHeader({
  ticket,
}: {
  ticket: {
    label: string;
    status: TicketStatus;
    overdue: boolean;
    device: string;
    opened: string;
    statusPath: string;
    receiptPath: string | null;
  };
}) {
  return (
    <div>
      <BackLink to="/admin/repairs">Back to Repairs</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold">Ticket {ticket.label}</h1>
        <RepairStatusBadge status={ticket.status} />
        {ticket.overdue ? <span className="font-semibold text-destructive">Overdue</span> : null}
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        {ticket.device} · opened {ticket.opened}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Link
          to={`/admin/repairs/${ticket.label}/claim`}
          className={buttonVariants({ variant: "outline" })}
        >
          Print claim ticket
        </Link>
        <a href={ticket.statusPath} className={buttonVariants({ variant: "outline" })}>
          Customer&apos;s status page
        </a>
        {ticket.receiptPath ? (
          <a href={ticket.receiptPath} className={buttonVariants({ variant: "outline" })}>
            Print receipt
          </a>
        ) : null}
        <Link
          to={`/admin/repairs/${ticket.label}/edit`}
          className={buttonVariants({ variant: "outline" })}
        >
          Correct details
        </Link>
      </div>
    </div>
  );
}

/** What the page was opened after: a ticket just opened, or just corrected. */
export function TicketNotices({
  ticket,
  opened,
  openedDeposit,
  corrected,
}: {
  ticket: { label: string; email: string };
  opened: boolean;
  /** The deposit taken with it at intake, in words (with the change to give), if one was. */
  openedDeposit: string | null;
  /** The corrected fields, named as the intake form names them. */
  corrected: string[];
}) {
  return (
    <>
      {opened ? (
        <FormMessage tone="success">
          Ticket {ticket.label} is open. {ticket.email} was sent its number and status link.
          {openedDeposit ? ` ${openedDeposit}` : null}
        </FormMessage>
      ) : null}
      {corrected.length > 0 ? (
        <FormMessage tone="success">
          Ticket {ticket.label} is corrected: {corrected.join(", ")}.
        </FormMessage>
      ) : null}
    </>
  );
}
