import { expect, it } from "vitest";
import { addressLimitKey, mailboxOf } from "./rate-limit.server.ts";

it("reads an address as its mailbox sees it: lower-case, without the +tag of its local part", () => {
  expect(mailboxOf("Victim+1@Example.com")).toBe("victim@example.com");
  expect(mailboxOf(" victim+shop+2@example.com ")).toBe("victim@example.com");
  expect(mailboxOf("VICTIM@EXAMPLE.COM")).toBe("victim@example.com");
  // Nothing before the +: there is no tag to take off.
  expect(mailboxOf("+1@example.com")).toBe("+1@example.com");
  expect(mailboxOf("not an address")).toBe("not an address");
});

it("keys every per-address limit on the mailbox, so its spellings share one count", () => {
  const keys = ["victim@example.com", "Victim+1@example.com", "victim+2@EXAMPLE.com"].map((email) =>
    addressLimitKey("alert:address", email),
  );
  expect(new Set(keys)).toEqual(new Set(["alert:address:victim@example.com"]));
  expect(addressLimitKey("sign-in", "someone.else@example.com")).toBe(
    "sign-in:someone.else@example.com",
  );
});
