import { describe, expect, it } from "vitest";
import { isNearBottom } from "./site-footer.tsx";
import { backHref } from "./title-detail.tsx";

describe("footer visibility (50 px rule)", () => {
  it("shows on pages shorter than the window plus 50 px", () => {
    expect(isNearBottom(0, 800, 850)).toBe(true);
    expect(isNearBottom(0, 800, 851)).toBe(false);
  });

  it("shows when scrolled to within 50 px of the bottom", () => {
    expect(isNearBottom(1150, 800, 2000)).toBe(true);
    expect(isNearBottom(1149, 800, 2000)).toBe(false);
  });
});

describe("back to the list", () => {
  it("returns to the list page the shopper came from", () => {
    expect(backHref("/movies", { from: "/movies?page=5&disc=DVD" })).toBe(
      "/movies?page=5&disc=DVD",
    );
    expect(backHref("/movies", { page: 3 })).toBe("/movies?page=3");
    expect(backHref("/movies", { page: 1 })).toBe("/movies");
    expect(backHref("/movies", null)).toBe("/movies");
  });

  it("never follows a state pointing elsewhere", () => {
    expect(backHref("/movies", { from: "https://evil.example/movies" })).toBe("/movies");
    expect(backHref("/movies", { from: "/moviesX" })).toBe("/movies");
    expect(backHref("/adult-movies", { from: "/movies?page=2" })).toBe("/adult-movies");
  });
});
