import { describe, expect, it } from "vitest";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { contactSchema } from "#app/domain/messages/contact-input.ts";
import {
  collectSchema,
  depositSchema,
  estimateErrors,
  estimateSchema,
  intakeDeposit,
  readEstimateForm,
  refundSchema,
  ticketSchema,
} from "./ticket-input.ts";

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

  it("speaks to staff about the customer, while the customer's own forms keep their words", () => {
    const blank = ticketSchema.safeParse({ ...intake, name: " ", email: "", phone: "" });
    expect(fieldErrors(blank.error!)).toMatchObject({
      name: "Enter the customer's name.",
      email: "Enter the customer's e-mail address.",
      phone: "Enter the customer's phone number.",
    });
    const broken = ticketSchema.safeParse({ ...intake, name: "Rosa\nReader", email: "rosa@" });
    expect(fieldErrors(broken.error!)).toMatchObject({
      name: "The customer's name cannot contain line breaks.",
      email: "Invalid email address",
    });
    const long = ticketSchema.safeParse({ ...intake, name: "R".repeat(101) });
    expect(fieldErrors(long.error!).name).toBe("Keep the customer's name under 100 characters.");

    const contact = contactSchema.safeParse({ name: "", email: "", message: "Hello" });
    expect(fieldErrors(contact.error!)).toMatchObject({
      name: "Please enter your name.",
      email: "Please enter your email.",
    });
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

  it("reads the rows added in the browser, up to 20, and gives back as many rows as were sent", () => {
    const form: Record<string, string> = { from: "diagnosing" };
    for (let row = 0; row < 25; row++) {
      form[`lines.${row}.kind`] = "part";
      form[`lines.${row}.description`] = `Part ${row + 1}`;
      form[`lines.${row}.quantity`] = "1";
      form[`lines.${row}.unitPrice`] = "1";
    }
    const all = readEstimateForm(form);
    expect(all.values).toHaveLength(20);
    expect(all.rows).toEqual(Array.from({ length: 20 }, (_, row) => row));
    expect(estimateSchema.parse(all.input).lines.at(-1)!.description).toBe("Part 20");

    // Seven rows sent (the last blank): seven come back, so none typed is lost.
    const seven = Object.fromEntries(
      Object.entries(form).filter(([name]) => /^lines\.[0-6]\./.test(name) || name === "from"),
    );
    seven["lines.6.description"] = "";
    seven["lines.6.unitPrice"] = "";
    const read = readEstimateForm(seven);
    expect(read.values).toHaveLength(7);
    expect(read.rows).toHaveLength(6);
    // The five rows of the page without JavaScript come back as five.
    expect(readEstimateForm({ from: "diagnosing" }).values).toHaveLength(5);
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

describe("payments at the desk", () => {
  const key = "3f1c2a9e-5b7d-4e21-9c0a-6d8e7f1a2b3c";

  it("reads a deposit in dollars, cash handed over left blank or typed", () => {
    expect(depositSchema.parse({ key, method: "cash", amount: "50", tendered: "" })).toEqual({
      key,
      method: "cash",
      amount: 5000,
      tendered: undefined,
      reference: undefined,
    });
    expect(
      depositSchema.parse({ key, method: "card", amount: "20.50", reference: " 4242-ok " }),
    ).toMatchObject({ amount: 2050, reference: "4242-ok" });
    expect(
      collectSchema.parse({ key, paymentMethod: "cash", paid: "10", tendered: "20" }),
    ).toMatchObject({ paid: 1000, tendered: 2000 });
  });

  it("needs the form's own key, so a form sent twice can be told from two forms", () => {
    for (const form of [{}, { key: "" }, { key: "not a key!" }]) {
      const parsed = depositSchema.safeParse({ ...form, method: "card", amount: "5" });
      expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["key", "This form is out of date: open it again."],
      ]);
    }
    expect(refundSchema.safeParse({ amount: "5" }).success).toBe(false);
    expect(refundSchema.parse({ key, amount: "25" })).toEqual({ key, amount: 2500 });
    expect(refundSchema.safeParse({ key, amount: "0" }).error?.issues[0]?.message).toBe(
      "Please enter the amount to refund, e.g. 50.00.",
    );
  });

  it("takes no deposit at intake while its fields are blank, and checks one that is typed", () => {
    expect(intakeDeposit({ key, method: "", amount: " ", tendered: "", reference: "" })).toEqual({
      ok: true,
      deposit: null,
    });
    expect(intakeDeposit({ key, method: "cash", amount: "20", tendered: "50" })).toEqual({
      ok: true,
      deposit: { key, method: "cash", amount: 2000, tendered: 5000, reference: undefined },
    });
    // An amount with no method, or a method with no amount, is a deposit half typed.
    for (const typed of [{ amount: "20" }, { method: "card" }, { tendered: "50" }]) {
      const read = intakeDeposit({ key, ...typed });
      expect(read.ok).toBe(false);
    }
  });

  it("refuses no deposit, no method, and cash that is not an amount", () => {
    const deposit = depositSchema.safeParse({ amount: "0", tendered: "lots" });
    expect(deposit.success).toBe(false);
    const paths = deposit.error!.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["method", "amount", "tendered"]));
    expect(
      collectSchema.safeParse({ paymentMethod: "cash", paid: "10", tendered: "x" }).success,
    ).toBe(false);
  });
});
