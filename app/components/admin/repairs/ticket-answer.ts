import type { Answer } from "#app/lib/answer.ts";
import { useNavigation } from "react-router";
import type { EstimateRowValues } from "#app/domain/repair-tickets/ticket-input.ts";

/** The forms of a repair ticket's page, named by their `intent` field. */
export type TicketIntent = "move" | "estimate" | "deposit" | "collect" | "refund";

/** What the ticket page's action answers, for the form that was sent. */
export type TicketAnswer = Answer & {
  intent: TicketIntent;
  estimateRows?: EstimateRowValues[];
  /** New per sent estimate, so the emptied form replaces the typed one. */
  sentId?: string;
};

/** Whether this form of the page is being sent. */
export function useBusy(intent: TicketIntent) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
