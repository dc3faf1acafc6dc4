import { describe, expect, it } from "vitest";
import {
  ticketOfStatusLink,
  ticketPayPath,
  ticketReceiptPath,
  ticketStatusPath,
} from "./status-link.server.ts";
import {
  canMove,
  isWorkAhead,
  OPEN_STATUSES,
  paidByLabel,
  paidDifference,
  parseTicketLabel,
  promisedDateLabel,
  statusesBefore,
  ticketLabel,
  TICKET_STATUSES,
} from "./status.ts";

const SECRET = "repair-status-test-secret-of-enough-length";

describe("a ticket's statuses", () => {
  it("move only along the table: estimates, decisions and collection have actions of their own", () => {
    expect(canMove("checked_in", "diagnosing")).toBe(true);
    expect(canMove("checked_in", "repairing")).toBe(false);
    expect(canMove("estimate_sent", "estimate_sent")).toBe(true); // a new estimate replaces it
    expect(canMove("ready", "collected")).toBe(true);
    expect(canMove("collected", "ready")).toBe(false);
    expect(statusesBefore("returned")).toEqual(["checked_in", "diagnosing", "declined"]);
    expect(statusesBefore("estimate_sent")).toEqual(["diagnosing", "estimate_sent", "declined"]);
    expect(statusesBefore("checked_in")).toEqual([]);
  });

  it("are open until collected or returned, and promise work only until it is done or declined", () => {
    expect(OPEN_STATUSES).toEqual(
      TICKET_STATUSES.filter((status) => status !== "collected" && status !== "returned"),
    );
    expect(TICKET_STATUSES.filter(isWorkAhead)).toEqual([
      "checked_in",
      "diagnosing",
      "estimate_sent",
      "approved",
      "repairing",
    ]);
  });
});

describe("ticket labels", () => {
  it("read back as typed at the counter, and nothing else", () => {
    expect(ticketLabel(1042)).toBe("R-1042");
    for (const typed of ["R-1042", "r1042", " r - 1042 ", "1042"]) {
      expect(parseTicketLabel(typed)).toBe(1042);
    }
    for (const typed of ["", "R-", "RMA-1042", "R-10a", "R-1234567890", "#1042"]) {
      expect(parseTicketLabel(typed)).toBeUndefined();
    }
  });
});

describe("the status link", () => {
  it("opens its own ticket only, and never a forged or borrowed signature", () => {
    const path = ticketStatusPath(1042, SECRET);
    const [, , label, token] = path.split("/");
    expect(label).toBe("R-1042");
    expect(ticketOfStatusLink(label, token, SECRET)).toBe(1042);
    expect(ticketReceiptPath(1042, SECRET)).toBe(`${path}/receipt`);
    // The signature of 1042 opens neither 1043 nor 1042 under another secret.
    expect(ticketOfStatusLink("R-1043", token, SECRET)).toBeUndefined();
    expect(ticketOfStatusLink(label, token, `${SECRET}-other`)).toBeUndefined();
    // The label must be the printed one, and a token there must be.
    expect(ticketOfStatusLink("1042", token, SECRET)).toBeUndefined();
    expect(ticketOfStatusLink(label, undefined, SECRET)).toBeUndefined();
    expect(ticketOfStatusLink(label, `${token!.slice(0, -1)}x`, SECRET)).toBeUndefined();
  });
});

describe("money and dates on the ticket", () => {
  it("says how the amount taken differs from the approved total, or nothing when it agrees", () => {
    expect(paidDifference(5954, 5954)).toBeNull();
    expect(paidDifference(100, 5954)).toBe("$58.54 less than the approved $59.54");
    expect(paidDifference(6000, 5954)).toBe("$0.46 more than the approved $59.54");
  });

  it("names the promised day as the calendar says, wherever the server is", () => {
    expect(promisedDateLabel("2026-03-08")).toBe("Sun, Mar 8, 2026");
    expect(promisedDateLabel("2026-12-31")).toBe("Thu, Dec 31, 2026");
  });
});

describe("how a repair was paid", () => {
  it("names each method once, in the order paid, and no charge when nothing was", () => {
    expect(paidByLabel(["card", "cash", "card"])).toBe("Card, Cash");
    expect(paidByLabel(["online"])).toBe("Online");
    expect(paidByLabel([])).toBe("No charge");
  });

  it("has its pay link under the ticket's status link", () => {
    expect(ticketPayPath(1042, "s".repeat(32))).toBe(
      `${ticketStatusPath(1042, "s".repeat(32))}/pay`,
    );
  });
});
