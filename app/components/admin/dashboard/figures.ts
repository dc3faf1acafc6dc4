import type { mostWanted } from "#app/domain/alerts/alerts.server.ts";
import type { dashboardFigures } from "#app/domain/dashboard/dashboard.server.ts";
import type { repairSummary } from "#app/domain/repair-tickets/tickets.server.ts";
import type { returnCounts } from "#app/domain/returns/returns.server.ts";

/** The dashboard's figures, as its loader gathers them. */
export type Figures = Awaited<ReturnType<typeof dashboardFigures>> & {
  tickets: Awaited<ReturnType<typeof repairSummary>>;
  returns: Awaited<ReturnType<typeof returnCounts>>;
  wanted: Awaited<ReturnType<typeof mostWanted>>;
  asOf: string;
  timeZone: string;
  lowStockThreshold: number;
  /** An admin's: a clerk opens a booked repair at the desk, and has no inbox (decision 023). */
  mayOpenInbox: boolean;
  /** Whether the titles named link to their edit pages: a clerk sees them, but not those. */
  mayEditCatalogue: boolean;
};

/** "2026-03" as "March"; the month is already the shop's, so no zone applies. */
export function monthName(month: string) {
  return new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

export function dayName(day: string) {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

export function plural(count: number, noun: string) {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : `${noun}s`}`;
}

export const panel = "rounded-xl border bg-card p-5 text-card-foreground";
export const moreLink = "mt-3 inline-block text-sm font-medium text-primary underline";
