import { describe, expect, it } from "vitest";
import {
  can,
  isStaff,
  landingAfterSignIn,
  mayRefund,
  type Permission,
  refundCeiling,
  roleOf,
} from "./permissions.ts";

const EVERY_PERMISSION: Permission[] = [
  "back-office",
  "orders.view",
  "orders.manage",
  "repairs",
  "returns",
  "refunds.above-limit",
  "catalogue",
  "customers",
  "inbox",
];

const allowed = (role: Parameters<typeof can>[0]) =>
  EVERY_PERMISSION.filter((permission) => can(role, permission));

describe("who may do what in the back office", () => {
  it("lets a customer do nothing there", () => {
    expect(allowed("customer")).toEqual([]);
    expect(isStaff("customer")).toBe(false);
  });

  it("lets a clerk use the repair desk, receive returns and read orders, and nothing else", () => {
    expect(allowed("clerk")).toEqual(["back-office", "orders.view", "repairs", "returns"]);
    expect(isStaff("clerk")).toBe(true);
  });

  it("lets an admin do everything", () => {
    expect(allowed("admin")).toEqual(EVERY_PERMISSION);
    expect(isStaff("admin")).toBe(true);
  });

  it("reads a stored role, and takes anything it does not know for a customer", () => {
    expect(roleOf("admin")).toBe("admin");
    expect(roleOf("clerk")).toBe("clerk");
    expect(roleOf("customer")).toBe("customer");
    for (const stored of [null, undefined, "", "user", "Admin", "admin,clerk"]) {
      expect(roleOf(stored)).toBe("customer");
    }
  });

  it("takes staff to the back office after signing in, and everyone else on their way", () => {
    expect(landingAfterSignIn("admin", "/cart")).toBe("/admin");
    expect(landingAfterSignIn("clerk", "/cart")).toBe("/admin");
    expect(landingAfterSignIn("customer", "/cart")).toBe("/cart");
    expect(landingAfterSignIn(null, "/cart")).toBe("/cart");
  });
});

describe("the counter's refund limit", () => {
  const LIMIT = 10000;

  it("lets a clerk refund below and at the limit, never above it", () => {
    expect(mayRefund("clerk", 9999, LIMIT)).toBe(true);
    expect(mayRefund("clerk", LIMIT, LIMIT)).toBe(true);
    expect(mayRefund("clerk", LIMIT + 1, LIMIT)).toBe(false);
    expect(refundCeiling("clerk", LIMIT)).toBe(LIMIT);
  });

  it("lets an admin refund any amount", () => {
    for (const amount of [0, LIMIT, LIMIT + 1, 10_000_000]) {
      expect(mayRefund("admin", amount, LIMIT)).toBe(true);
    }
    expect(refundCeiling("admin", LIMIT)).toBeUndefined();
  });

  it("lets a customer refund nothing, however small", () => {
    expect(mayRefund("customer", 1, LIMIT)).toBe(false);
  });

  it("at a limit of nothing, leaves every refund to an admin", () => {
    expect(mayRefund("clerk", 0, 0)).toBe(true);
    expect(mayRefund("clerk", 1, 0)).toBe(false);
  });
});
