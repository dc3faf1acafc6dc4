import { RETURN_STATUS_LABELS, type ReturnStatus } from "#app/domain/returns/status.ts";
import { Badge, type BadgeVariant } from "./ui/badge.tsx";

const VARIANT: Record<ReturnStatus, BadgeVariant> = {
  requested: "secondary",
  received: "outline",
  refunded: "success",
  rejected: "destructive",
};

/** A return's status; the word carries the meaning, not only the colour. */
export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  return <Badge variant={VARIANT[status]}>{RETURN_STATUS_LABELS[status]}</Badge>;
}
