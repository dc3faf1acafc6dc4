import { describe, expect, it } from "vitest";
import { isOrderCancelToken, orderCancelPath } from "./cancel-link.server.ts";

const SECRET = "a-secret-of-thirty-two-characters!!";

describe("an unpaid order's cancel link", () => {
  it("stays the link payment pages already hold", () => {
    // Worked out with the signature the link has carried since it was first handed out.
    expect(orderCancelPath(1042, SECRET)).toBe(
      "/checkout/cancel?order=1042&token=niA4UOfBH-5pX-ktBqyBrsgyQDvAZ3PjXSBtXjg7ODo",
    );
  });

  it("is good for its own order, with the shop's secret, only", () => {
    const token = new URL(orderCancelPath(7, SECRET), "http://shop.test").searchParams.get(
      "token",
    )!;
    expect(isOrderCancelToken(7, token, SECRET)).toBe(true);
    expect(isOrderCancelToken(8, token, SECRET)).toBe(false);
    expect(isOrderCancelToken(7, token, "another-secret")).toBe(false);
    expect(isOrderCancelToken(7, "", SECRET)).toBe(false);
  });
});
