import { describe, expect, it } from "vitest";
import { ALERT_STATUSES, alertStatusText, isWaiting, notToldText } from "./status.ts";

describe("an alert's status in words", () => {
  const timeZone = "America/Chicago";

  it("says what each state means to its owner", () => {
    const sentAt = null;
    expect(alertStatusText({ kind: "restock", status: "unconfirmed", sentAt }, timeZone)).toBe(
      "Waiting for your confirmation",
    );
    expect(alertStatusText({ kind: "release", status: "active", sentAt }, timeZone)).toBe(
      "Waiting",
    );
    expect(alertStatusText({ kind: "restock", status: "due", sentAt }, timeZone)).toBe(
      "Back in stock: your e-mail is on its way",
    );
    expect(alertStatusText({ kind: "release", status: "due", sentAt }, timeZone)).toBe(
      "Released: your e-mail is on its way",
    );
  });

  it("dates a sent alert in the shop's time zone", () => {
    // 03:30 UTC on the 4th is still the 3rd in Texas.
    const sentAt = new Date("2027-03-04T03:30:00Z");
    expect(alertStatusText({ kind: "restock", status: "sent", sentAt }, timeZone)).toBe(
      "Sent on Mar 3, 2027",
    );
  });

  it("lets only waiting alerts be unsubscribed", () => {
    expect(ALERT_STATUSES.filter(isWaiting)).toEqual(["unconfirmed", "active"]);
  });

  it("tells staff deleting a Coming Soon entry who will not be told of its release", () => {
    expect(notToldText(1)).toBe(
      "1 person waiting for its release will not be told; their alert ends with it.",
    );
    expect(notToldText(1200)).toBe(
      "1,200 people waiting for its release will not be told; their alerts end with it.",
    );
  });
});
