import { describe, expect, it } from "vitest";
import {
  clampPage,
  nearerEnd,
  pageCountFor,
  pageItems,
  responsivePageItems,
  type PageItem,
} from "./pagination.ts";

const show = (items: PageItem[]) =>
  items.map((item) => (item.kind === "page" ? String(item.page) : "…")).join(" ");

describe("pageItems", () => {
  it("shows every page when there are few", () => {
    expect(show(pageItems(1, 1))).toBe("1");
    expect(show(pageItems(3, 5))).toBe("1 2 3 4 5");
  });

  it("keeps a window of two around the current page, with first, last and ellipses", () => {
    expect(show(pageItems(1, 20))).toBe("1 2 3 … 20");
    expect(show(pageItems(10, 20))).toBe("1 … 8 9 10 11 12 … 20");
    expect(show(pageItems(20, 20))).toBe("1 … 18 19 20");
  });

  it("shows a single skipped page instead of an ellipsis", () => {
    expect(show(pageItems(4, 20))).toBe("1 2 3 4 5 6 … 20");
    expect(show(pageItems(5, 20))).toBe("1 2 3 4 5 6 7 … 20");
    expect(show(pageItems(6, 20))).toBe("1 … 4 5 6 7 8 … 20");
    expect(show(pageItems(16, 20))).toBe("1 … 14 15 16 17 18 19 20");
    expect(show(pageItems(15, 20))).toBe("1 … 13 14 15 16 17 … 20");
  });

  it("clamps a current page outside 1..pageCount", () => {
    expect(show(pageItems(99, 5))).toBe("1 2 3 4 5");
    expect(pageItems(1, 0)).toEqual([]);
  });
});

describe("clampPage and pageCountFor", () => {
  it("keeps pages within 1..count", () => {
    expect(clampPage(0, 10)).toBe(1);
    expect(clampPage(11, 10)).toBe(10);
    expect(clampPage(Number.NaN, 10)).toBe(1);
    expect(clampPage(3, 0)).toBe(1);
  });

  it("counts pages, at least one", () => {
    expect(pageCountFor(0, 24)).toBe(1);
    expect(pageCountFor(24, 24)).toBe(1);
    expect(pageCountFor(25, 24)).toBe(2);
    expect(pageCountFor(100_000, 24)).toBe(4167);
  });
});

describe("responsivePageItems", () => {
  const shown = (current: number, count: number, screen: "wide" | "narrow") =>
    responsivePageItems(current, count)
      .filter(({ show }) => show === "always" || show === screen)
      .map(({ item }) => (item.kind === "page" ? item.page : "…"));

  it("gives phones one page each side and wide screens two, each page once", () => {
    expect(shown(50, 100, "wide")).toEqual([1, "…", 48, 49, 50, 51, 52, "…", 100]);
    expect(shown(50, 100, "narrow")).toEqual([1, "…", 49, 50, 51, "…", 100]);
    expect(shown(5, 100, "wide")).toEqual([1, 2, 3, 4, 5, 6, 7, "…", 100]);
    expect(shown(5, 100, "narrow")).toEqual([1, "…", 4, 5, 6, "…", 100]);
    expect(shown(1, 1, "narrow")).toEqual([1]);
    const pages = responsivePageItems(5, 100).filter(({ item }) => item.kind === "page");
    expect(new Set(pages.map(({ item }) => (item.kind === "page" ? item.page : 0))).size).toBe(
      pages.length,
    );
  });
});

describe("reading a page from its nearer end", () => {
  it("takes the same rows as a walk from the start, for every page of lists of any length", () => {
    for (const total of [0, 1, 19, 20, 21, 59, 60, 61, 1000]) {
      const rows = Array.from({ length: total }, (_, index) => index);
      for (let page = 1; page <= pageCountFor(total, 20); page++) {
        const end = nearerEnd(page, 20, total);
        const read = end.reversed
          ? rows
              .slice()
              .reverse()
              .slice(end.offset, end.offset + end.limit)
              .reverse()
          : rows.slice(end.offset, end.offset + end.limit);
        expect(read, `${total} rows, page ${page}`).toEqual(rows.slice((page - 1) * 20, page * 20));
        expect(end.offset, "never skips more than half").toBeLessThanOrEqual(total / 2);
      }
    }
  });
});
