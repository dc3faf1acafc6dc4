import { describe, expect, it } from "vitest";
import { readReturnForm } from "./return-input.ts";

const KEY = "0f8b6a52-3c1e-4b5e-9d0a-6f2b1c9e7a41";

describe("the counter's return form", () => {
  it("reads how many of each line come back, the reason and an exchange's cash", () => {
    const read = readReturnForm({
      intent: "exchange",
      key: KEY,
      reason: "Exchange for another title",
      "qty-12": "2",
      "qty-13": "",
      "qty-14": "0",
      cashTendered: "5.50",
      idCheck: "",
    });
    expect(read).toEqual({
      ok: true,
      values: {
        intent: "exchange",
        key: KEY,
        reason: "Exchange for another title",
        cashTendered: 550,
        idCheck: null,
        quantities: new Map([[12, 2]]),
      },
    });
  });

  it("puts each problem next to its field, and never takes a quantity it cannot read", () => {
    const read = readReturnForm({ intent: "refund", key: KEY, reason: "", "qty-12": "1.5" });
    expect(read).toMatchObject({
      ok: false,
      errors: {
        "qty-12": "How many: a whole number, or leave it empty.",
        reason: "Choose why it comes back.",
      },
    });
    expect(readReturnForm({ intent: "refund", key: "x", reason: "Other" })).toMatchObject({
      ok: false,
      errors: { key: "This form is out of date: open it again." },
    });
  });
});
