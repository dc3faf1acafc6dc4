import { FormMessage } from "#app/components/form-field.tsx";
import type { TicketAnswer, TicketIntent } from "./ticket-answer.ts";

/** A part of the ticket's page: a section named by its heading. */
export function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-5">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** The answer to one of the page's forms, shown above that form. */
export function Message({
  answer,
  intent,
}: {
  answer: TicketAnswer | undefined;
  intent: TicketIntent;
}) {
  if (answer?.intent !== intent || !answer.message) return null;
  return (
    <div className="mb-3">
      <FormMessage tone={answer.ok ? "success" : "error"}>{answer.message}</FormMessage>
    </div>
  );
}

/** One line of the ticket's details: a term and what the ticket says. */
export function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted-foreground">{term}</dt>
      <dd className="min-w-0 break-words whitespace-pre-wrap">{children}</dd>
    </div>
  );
}
