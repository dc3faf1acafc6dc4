import { describe, expect, it } from "vitest";
import { bookingSchema } from "./booking-input.ts";

const valid = {
  name: "Rosa Reader",
  email: "rosa@example.test",
  phone: "+1 (817) 555-0199",
  serviceType: "PC & Laptop Repair",
  issue: "The laptop will not turn on.\nThe charger light is on.",
  preferredDate: "2026-11-24",
  preferredTime: "10:00",
};

const failedPaths = (input: Record<string, unknown>) => {
  const result = bookingSchema.safeParse(input);
  return result.success ? [] : [...new Set(result.error.issues.map((issue) => issue.path[0]))];
};

describe("the service form", () => {
  it("accepts a complete request and keeps line breaks in the issue", () => {
    expect(bookingSchema.parse(valid).issue).toContain("\n");
  });

  it("requires every field", () => {
    expect(failedPaths({})).toEqual(expect.arrayContaining(Object.keys(valid)));
    const blank = Object.fromEntries(Object.keys(valid).map((key) => [key, "  "]));
    expect(failedPaths(blank)).toEqual(expect.arrayContaining(Object.keys(valid)));
  });

  it("refuses line breaks and control characters in fields that reach mail headers", () => {
    const paths = failedPaths({
      ...valid,
      name: "Eve\r\nBcc: everyone@example.test",
      email: "eve@example.test\nBcc: x@example.test",
      phone: "817 555 0199\r\n",
    });
    expect(paths).toEqual(expect.arrayContaining(["name", "email"]));
    expect(failedPaths({ ...valid, name: "Eve\u0000" })).toEqual(["name"]);
    expect(failedPaths({ ...valid, phone: "817\n555\n0199" })).toEqual(["phone"]);
  });

  it("takes only US phone numbers and services from the list", () => {
    expect(failedPaths({ ...valid, phone: "817-555-019" })).toEqual(["phone"]);
    expect(failedPaths({ ...valid, phone: "+44 20 7946 0958" })).toEqual(["phone"]);
    expect(failedPaths({ ...valid, serviceType: "Toaster Repair" })).toEqual(["serviceType"]);
  });

  it("limits every field's length", () => {
    expect(failedPaths({ ...valid, name: "x".repeat(101) })).toEqual(["name"]);
    expect(failedPaths({ ...valid, email: `${"x".repeat(250)}@example.test` })).toEqual(["email"]);
    expect(failedPaths({ ...valid, phone: `817 555 0199${" ".repeat(20)}x` })).toEqual(["phone"]);
    expect(failedPaths({ ...valid, issue: "x".repeat(2001) })).toEqual(["issue"]);
    expect(failedPaths({ ...valid, issue: "x".repeat(2000) })).toEqual([]);
    expect(failedPaths({ ...valid, preferredDate: "2026-11-24T10:00" })).toEqual(["preferredDate"]);
    expect(failedPaths({ ...valid, preferredTime: "10:00:00" })).toEqual(["preferredTime"]);
  });
});
