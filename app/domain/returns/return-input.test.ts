import { describe, expect, it } from "vitest";
import { readReturnRequestForm } from "./return-input.ts";

describe("readReturnRequestForm", () => {
  it("reads each line's quantity, the reason and the method", () => {
    const parsed = readReturnRequestForm({
      "quantity.regular.12": "2",
      "quantity.adult.7": "0",
      reason: "Faulty disc",
      method: "mail",
    });
    expect(parsed.success && parsed.data).toEqual({
      lines: [{ productType: "regular", serialNo: 12, quantity: 2 }],
      reason: "Faulty disc",
      note: "",
      method: "mail",
    });
  });

  it("refuses one line named twice (`1` and `01`) with a message, not a database error", () => {
    const parsed = readReturnRequestForm({
      "quantity.regular.1": "1",
      "quantity.regular.01": "1",
      reason: "Faulty disc",
      method: "drop_off",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ["lines"], message: "Each item can be chosen only once." }),
    ]);
  });
});
