import { Form } from "react-router";
import { TextareaField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { STATUS_LABELS, type TicketStatus } from "#app/domain/repair-tickets/status.ts";
import { useBusy, type TicketAnswer } from "./ticket-answer.ts";
import { Message, Section } from "./ticket-section.tsx";

/** The button that makes each manual move, in the bench's words. */
const MOVE_WORDS: Partial<Record<TicketStatus, string>> = {
  diagnosing: "Start diagnosing",
  repairing: "Start the repair",
  ready: "Mark ready for pickup",
  returned: "Return unrepaired",
};

/** The ticket's next step: the moves staff make by hand, with an optional note. */
export function MoveForm({
  status,
  moves,
  answer,
}: {
  status: TicketStatus;
  moves: TicketStatus[];
  answer?: TicketAnswer;
}) {
  const busy = useBusy("move");
  const mine = answer?.intent === "move" ? answer : undefined;
  return (
    <Section id="ticket-move" title="Next step">
      <Message answer={answer} intent="move" />
      {moves.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {status === "estimate_sent"
            ? "Waiting for the customer to approve or decline the estimate."
            : status === "ready"
              ? "Waiting for the customer to collect it (below)."
              : status === "diagnosing"
                ? "Send an estimate (below), or return the device unrepaired."
                : "Nothing left to do for this ticket."}
        </p>
      ) : (
        <Form key={mine?.sentId ?? "move"} method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="move" />
          {/* The status seen here: if someone moved the ticket meanwhile, this move is refused. */}
          <input type="hidden" name="from" value={status} />
          <TextareaField
            label="Note (optional)"
            name="note"
            rows={2}
            maxLength={500}
            defaultValue={mine && !mine.ok ? mine.values?.note : ""}
            error={mine?.errors?.note}
          />
          <div className="flex flex-wrap gap-2">
            {moves.map((to) => (
              <Button
                key={to}
                type="submit"
                name="to"
                value={to}
                variant={to === "returned" ? "outline" : "default"}
                disabled={busy}
              >
                {MOVE_WORDS[to] ?? STATUS_LABELS[to]}
              </Button>
            ))}
          </div>
        </Form>
      )}
    </Section>
  );
}
