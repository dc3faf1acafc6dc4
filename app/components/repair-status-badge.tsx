import { STATUS_LABELS, type TicketStatus } from "#app/domain/repair-tickets/status.ts";
import { Badge, type BadgeVariant } from "./ui/badge.tsx";

const VARIANT: Record<TicketStatus, BadgeVariant> = {
  checked_in: "secondary",
  diagnosing: "secondary",
  estimate_sent: "outline",
  approved: "default",
  declined: "destructive",
  repairing: "default",
  ready: "success",
  collected: "outline",
  returned: "outline",
};

/** A repair ticket's status in staff words; the word carries the meaning, not only the colour. */
export function RepairStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge variant={VARIANT[status]}>{STATUS_LABELS[status]}</Badge>;
}
