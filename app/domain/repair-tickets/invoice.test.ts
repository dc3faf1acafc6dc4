import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cashChange, repairAccount, repairInvoice, type PaymentAmount } from "./invoice.ts";

const RATE = 0.0825;

describe("repairInvoice", () => {
  it("taxes labour and parts alike, once, rounded half up", () => {
    expect(
      repairInvoice(
        [
          { kind: "part", quantity: 1, unitCents: 8950 },
          { kind: "labour", quantity: 1, unitCents: 6000 },
        ],
        RATE,
      ),
    ).toEqual({
      labourCents: 6000,
      partsCents: 8950,
      subtotalCents: 14950,
      // 14950 × 0.0825 = 1233.375 → 1233
      taxCents: 1233,
      totalCents: 16183,
    });
  });

  it("adds up: total = lines + tax, tax never negative", () => {
    const line = fc.record({
      kind: fc.constantFrom("labour" as const, "part" as const),
      quantity: fc.integer({ min: 1, max: 999 }),
      unitCents: fc.integer({ min: 0, max: 10_000_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 20 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (lines, rate) => {
          const invoice = repairInvoice(lines, rate);
          const sum = lines.reduce((total, l) => total + l.quantity * l.unitCents, 0);
          expect(invoice.labourCents + invoice.partsCents).toBe(sum);
          expect(invoice.subtotalCents).toBe(sum);
          expect(invoice.taxCents).toBeGreaterThanOrEqual(0);
          expect(Math.abs(invoice.taxCents - sum * rate)).toBeLessThanOrEqual(0.5 + 1e-6);
          expect(invoice.totalCents).toBe(invoice.subtotalCents + invoice.taxCents);
        },
      ),
    );
  });
});

describe("repairAccount", () => {
  it("counts a deposit, the balance and a refund", () => {
    expect(
      repairAccount(16183, [
        { kind: "deposit", amountCents: 5000 },
        { kind: "balance", amountCents: 12000 },
        { kind: "refund", amountCents: 817 },
      ]),
    ).toEqual({
      totalCents: 16183,
      depositCents: 5000,
      paymentsCents: 12000,
      refundsCents: 817,
      paidCents: 16183,
      balanceCents: 0,
    });
  });

  it("adds up: deposit + payments − refunds = paid, balance = total − paid, in any order", () => {
    const payment = fc.record({
      kind: fc.constantFrom("deposit" as const, "balance" as const, "refund" as const),
      amountCents: fc.integer({ min: 1, max: 10_000_000 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(payment, { maxLength: 12 }),
        (totalCents, payments: PaymentAmount[]) => {
          const account = repairAccount(totalCents, payments);
          const sum = (kind: string) =>
            payments.filter((p) => p.kind === kind).reduce((s, p) => s + p.amountCents, 0);
          expect(account.depositCents).toBe(sum("deposit"));
          expect(account.paymentsCents).toBe(sum("balance"));
          expect(account.refundsCents).toBe(sum("refund"));
          expect(account.paidCents).toBe(
            account.depositCents + account.paymentsCents - account.refundsCents,
          );
          expect(account.balanceCents).toBe(totalCents - account.paidCents);
          expect(repairAccount(totalCents, [...payments].reverse())).toEqual(account);
          // Paying the balance settles the account exactly.
          if (account.balanceCents > 0) {
            const settled = repairAccount(totalCents, [
              ...payments,
              { kind: "balance", amountCents: account.balanceCents },
            ]);
            expect(settled.balanceCents).toBe(0);
          }
        },
      ),
    );
  });
});

describe("cashChange", () => {
  it("gives change from what was handed over, and refuses too little", () => {
    expect(cashChange(4250, 5000)).toEqual({ ok: true, tenderedCents: 5000, changeCents: 750 });
    expect(cashChange(4250, undefined)).toEqual({ ok: true, tenderedCents: 4250, changeCents: 0 });
    expect(cashChange(4250, 4000)).toMatchObject({ ok: false });
  });
});
