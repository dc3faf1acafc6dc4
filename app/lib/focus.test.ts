import { describe, expect, it } from "vitest";
import { visibleSearch } from "./focus.ts";

describe("visibleSearch", () => {
  it("leaves out the index marker React Router adds to an index route's form", () => {
    expect(visibleSearch("?index")).toBe("");
    expect(visibleSearch("?paid=100001&index")).toBe("?paid=100001");
    expect(visibleSearch("?q=poster&page=2")).toBe("?q=poster&page=2");
    expect(visibleSearch("")).toBe("");
  });
});
