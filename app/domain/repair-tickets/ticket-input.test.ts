import { describe, expect, it } from "vitest";
import { estimateErrors, estimateSchema, readEstimateForm, ticketSchema } from "./ticket-input.ts";

const intake = {
  name: "Rosa Reader",
  email: "rosa@example.test",
  phone: "(817) 555-0199",
  serviceType: "PC & Laptop Repair",
  deviceKind: "Laptop",
  deviceBrand: "Dell",
  deviceModel: "XPS 13",
  problem: "Does not start.",
  conditionAtIntake: "Scratch on the lid.",
  promisedDate: "2026-12-01",
};

describe("the intake form", () => {
  it("refuses a promised date that is no day of the calendar", () => {
    const parsed = ticketSchema.safeParse({ ...intake, promisedDate: "2026-02-30" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Please choose a promised date.");
    expect(ticketSchema.safeParse(intake).success).toBe(true);
  });
});

describe("the estimate form's rows", () => {
  it("ignores blank rows and keeps each message on its own row's field", () => {
    const form = {
      from: "diagnosing",
      "lines.0.kind": "labour",
      "lines.0.description": "Replace the screen",
      "lines.0.quantity": "1",
      "lines.0.unitPrice": "80",
      "lines.1.kind": "part",
      "lines.1.quantity": "1",
      "lines.2.kind": "part",
      "lines.2.description": "Screen panel",
      "lines.2.quantity": "1",
      "lines.2.unitPrice": "a lot",
    };
    const { input, rows, values } = readEstimateForm(form);
    expect(rows).toEqual([0, 2]);
    expect(values[2]!.unitPrice).toBe("a lot");
    const parsed = estimateSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(estimateErrors(parsed.error!, rows)).toEqual({
      "lines.2.unitPrice": "Please enter a price, e.g. 49.99.",
    });
  });

  it("needs at least one line", () => {
    const { input, rows } = readEstimateForm({ from: "diagnosing", "lines.0.kind": "labour" });
    const parsed = estimateSchema.safeParse(input);
    expect(estimateErrors(parsed.error!, rows)).toEqual({
      lines: "An estimate needs at least one line.",
    });
  });

  it("reads prices in dollars as cents", () => {
    const { input } = readEstimateForm({
      from: "declined",
      "lines.0.kind": "part",
      "lines.0.description": "Battery",
      "lines.0.quantity": "2",
      "lines.0.unitPrice": "49.99",
    });
    expect(estimateSchema.parse(input).lines).toEqual([
      { kind: "part", description: "Battery", quantity: 2, unitCents: 4999 },
    ]);
  });
});
