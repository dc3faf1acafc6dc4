import { SectionCard } from "./section-card.tsx";

export type HistoryEntry = {
  id: number;
  when: string;
  /** "paid → shipped", "Return RMA-1001: Requested → Received". */
  change: string;
  by: string;
  note: string | null;
};

/** What happened to an order or a return, oldest first: when, what, who, and a note. */
export function HistoryCard({ history }: { history: HistoryEntry[] }) {
  return (
    <SectionCard title="History">
      <ol className="flex flex-col gap-2 text-sm">
        {history.map((event) => (
          <li key={event.id} className="flex flex-wrap gap-x-2">
            <span className="text-muted-foreground">{event.when}</span>
            <span className="font-medium first-letter:uppercase">{event.change}</span>
            <span>by {event.by}</span>
            {event.note ? <span className="text-muted-foreground">({event.note})</span> : null}
          </li>
        ))}
      </ol>
    </SectionCard>
  );
}
