import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  refundableCents,
  refundSources,
  refundWords,
  splitRefund,
  type PaymentRow,
} from "./deposit-refund.ts";
import { repairAccount } from "./invoice.ts";

const paid = (
  id: number,
  method: PaymentRow["method"],
  amountCents: number,
  kind: PaymentRow["kind"] = "deposit",
): PaymentRow => ({ id, kind, method, amountCents, refundedPaymentId: null });

const refund = (id: number, of: PaymentRow, amountCents: number): PaymentRow => ({
  id,
  kind: "refund",
  method: of.method,
  amountCents,
  refundedPaymentId: of.id,
});

describe("splitRefund", () => {
  it("gives a cash deposit back in cash, all of it or part", () => {
    const cash = paid(1, "cash", 2500);
    expect(splitRefund([cash], 2500)).toEqual({
      ok: true,
      parts: [{ paymentId: 1, method: "cash", leftCents: 2500, amountCents: 2500 }],
    });
    expect(splitRefund([cash, refund(2, cash, 1000)], 1500)).toEqual({
      ok: true,
      parts: [{ paymentId: 1, method: "cash", leftCents: 1500, amountCents: 1500 }],
    });
  });

  it("goes back to the card first, then in cash, whatever order they were taken in", () => {
    const payments = [paid(1, "cash", 2000), paid(2, "card", 3000)];
    expect(splitRefund(payments, 4000)).toEqual({
      ok: true,
      parts: [
        { paymentId: 2, method: "card", leftCents: 3000, amountCents: 3000 },
        { paymentId: 1, method: "cash", leftCents: 2000, amountCents: 1000 },
      ],
    });
    expect(
      refundWords([
        { method: "card", amountCents: 3000 },
        { method: "cash", amountCents: 1000 },
      ]),
    ).toBe("$30.00 to the card, $10.00 in cash from the till");
  });

  it("never gives back more than was taken and not given back", () => {
    const card = paid(1, "card", 5000);
    expect(splitRefund([card, refund(2, card, 4000)], 1001)).toEqual({
      ok: false,
      message: "At most $10.00 can be refunded: what was taken and not yet given back.",
    });
    expect(splitRefund([card, refund(2, card, 5000)], 1)).toEqual({
      ok: false,
      message: "Nothing taken on this ticket is left to refund.",
    });
    expect(splitRefund([], 100)).toMatchObject({ ok: false });
    expect(splitRefund([card], 0)).toMatchObject({ ok: false });
  });

  it("leaves a payment made online to its own provider", () => {
    const online = paid(1, "online", 6820, "balance");
    expect(refundSources([online])).toEqual([]);
    expect(refundableCents([online, paid(2, "cash", 500)])).toBe(500);
  });
});

/** A ticket's payments as the desk and the pay link can leave them: ids in order. */
const takings = fc
  .array(
    fc.record({
      kind: fc.constantFrom("deposit" as const, "balance" as const),
      method: fc.constantFrom("cash" as const, "card" as const, "online" as const),
      amountCents: fc.integer({ min: 1, max: 10_000_000 }),
    }),
    { maxLength: 6 },
  )
  .map((rows) =>
    rows.map((row, index): PaymentRow => ({ ...row, id: index + 1, refundedPaymentId: null })),
  );

describe("refunds, whatever their number, size and order", () => {
  it("never give a payment back more than it took, nor another way than it was paid", () => {
    fc.assert(
      fc.property(
        takings,
        fc.array(fc.integer({ min: -100, max: 20_000_000 }), { maxLength: 8 }),
        (taken, asked) => {
          const rows = [...taken];
          const atDesk = taken.filter((row) => row.method !== "online");
          const deskCents = atDesk.reduce((sum, row) => sum + row.amountCents, 0);
          for (const amountCents of asked) {
            const before = refundableCents(rows);
            const split = splitRefund(rows, amountCents);
            // Refused exactly when it asks for nothing, or for more than is left.
            expect(split.ok).toBe(amountCents >= 1 && amountCents <= before);
            if (!split.ok) continue;
            expect(split.parts.reduce((sum, part) => sum + part.amountCents, 0)).toBe(amountCents);
            // Card first: a part in cash only once every card payment is given back in full.
            const cardLeft = refundSources(rows)
              .filter((source) => source.method === "card")
              .reduce((sum, source) => sum + source.leftCents, 0);
            const toCard = split.parts
              .filter((part) => part.method === "card")
              .reduce((sum, part) => sum + part.amountCents, 0);
            if (split.parts.some((part) => part.method === "cash")) expect(toCard).toBe(cardLeft);
            for (const part of split.parts) {
              const payment = rows.find((row) => row.id === part.paymentId)!;
              expect(part.amountCents).toBeGreaterThan(0);
              expect(part.method).toBe(payment.method);
              rows.push({
                id: rows.length + 1,
                kind: "refund",
                method: part.method,
                amountCents: part.amountCents,
                refundedPaymentId: part.paymentId,
              });
            }
            expect(refundableCents(rows)).toBe(before - amountCents);
          }
          for (const payment of taken) {
            const back = rows
              .filter((row) => row.refundedPaymentId === payment.id)
              .reduce((sum, row) => sum + row.amountCents, 0);
            expect(back).toBeLessThanOrEqual(payment.amountCents);
          }
          // Whatever is left goes back in one more refund; then everything taken at the desk has.
          const left = refundableCents(rows);
          if (left > 0) {
            const last = splitRefund(rows, left);
            if (!last.ok) throw new Error(last.message);
            for (const part of last.parts) {
              rows.push({
                id: rows.length + 1,
                kind: "refund",
                method: part.method,
                amountCents: part.amountCents,
                refundedPaymentId: part.paymentId,
              });
            }
          }
          expect(refundableCents(rows)).toBe(0);
          const account = repairAccount(0, rows);
          expect(account.refundsCents).toBe(deskCents);
          const online = taken.filter((row) => row.method === "online");
          expect(account.paidCents).toBe(online.reduce((sum, row) => sum + row.amountCents, 0));
        },
      ),
    );
  });
});
