import type { Answer } from "#app/lib/answer.ts";
import type { InboxRef } from "#app/domain/inbox/inbox.server.ts";
import type { ReplyValues } from "#app/domain/inbox/reply-input.ts";

/** A contact message or repair request as its back-office page shows it. */
export type InboxItemShown = {
  ref: InboxRef;
  name: string;
  email: string;
  received: string;
  handled: { at: string; by: string } | null;
  contact: { message: string } | null;
  repair: {
    phone: string;
    serviceType: string;
    issue: string;
    slot: string;
    cancelled: { at: string; by: string } | null;
    started: boolean;
    cancellable: boolean;
    ticket: string | null;
    canOpenTicket: boolean;
    confirmCancel: boolean;
  } | null;
};

/** What the page's action answers, for the form that was sent. */
export type InboxAnswer = Answer<ReplyValues> & {
  intent: "reply" | "state" | "cancel";
  /** A new one per sent reply, so the emptied form replaces the typed one. */
  sentId?: string;
};
