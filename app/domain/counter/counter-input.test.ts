import { describe, expect, it } from "vitest";
import { lineSchema, paySchema, readCounterForm } from "./counter-input.ts";

describe("the counter's forms", () => {
  it("reads a payment with or without the ID check's field", () => {
    expect(readCounterForm(paySchema, { cashTendered: "$50" })).toEqual({
      ok: true,
      values: { cashTendered: 5000, card: null, idCheck: null },
    });
    expect(
      readCounterForm(paySchema, { cashTendered: "", card: "15", idCheck: "1990-02-03" }),
    ).toEqual({
      ok: true,
      values: { cashTendered: 0, card: 1500, idCheck: "1990-02-03" },
    });
    expect(readCounterForm(paySchema, { cashTendered: "", card: "lots" })).toMatchObject({
      ok: false,
      errors: { card: "The card amount must be an amount, e.g. 20.00." },
    });
    expect(
      readCounterForm(paySchema, { cashTendered: "ten", idCheck: "1990-02-31" }),
    ).toMatchObject({
      ok: false,
      errors: {
        cashTendered: "Cash tendered must be an amount, e.g. 20.00.",
        idCheck: "Type the birth date on the ID as a real date.",
      },
    });
  });

  it("asks why a discount is given, and keeps quantities whole and small", () => {
    expect(
      readCounterForm(lineSchema, { line: "7", quantity: "2", discount: "5", reason: "" }),
    ).toMatchObject({ ok: false, errors: { reason: "Say why the discount is given." } });
    expect(
      readCounterForm(lineSchema, { line: "7", quantity: "100", discount: "", reason: "" }),
    ).toMatchObject({ ok: false, errors: { quantity: expect.stringMatching(/1 to 99/) } });
    expect(
      readCounterForm(lineSchema, { line: "7", quantity: "3", discount: "2.50", reason: "Worn" }),
    ).toEqual({ ok: true, values: { line: 7, quantity: 3, discount: 250, reason: "Worn" } });
  });
});
