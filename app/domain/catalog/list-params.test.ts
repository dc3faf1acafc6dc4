import { describe, expect, it } from "vitest";
import { adultListParams, regularListParams, searchParams, withPage } from "./list-params.ts";
import { containsPattern, normalizeQuery } from "./search-text.ts";

const params = (query: string) => new URLSearchParams(query);

describe("list parameters from the URL", () => {
  it("reads page, disc and sort, falling back to defaults for anything unknown", () => {
    expect(regularListParams(params("page=3&disc=Blu-ray&sort=za"))).toEqual({
      page: 3,
      disc: "Blu-ray",
      genre: undefined,
      sort: "za",
    });
    expect(regularListParams(params("page=-2&disc=VHS&sort=random&genre=%20"))).toEqual({
      page: 1,
      disc: undefined,
      genre: undefined,
      sort: "none",
    });
    expect(regularListParams(params("page=abc"))).toMatchObject({ page: 1 });
    expect(regularListParams(params("disc=4K%2FBlu-ray"))).toMatchObject({ disc: "4K/Blu-ray" });
  });

  it("reads the genre and the catalogue's extra sorts, which other lists do not take", () => {
    expect(regularListParams(params("genre=Science%20Fiction&sort=price-desc"))).toMatchObject({
      genre: "Science Fiction",
      sort: "price-desc",
    });
    for (const sort of ["newest", "price-asc", "price-desc", "az", "za", "none"]) {
      expect(regularListParams(params(`sort=${sort}`)).sort).toBe(sort);
    }
    expect(regularListParams(params("sort=price"))).toMatchObject({ sort: "none" });
    expect(adultListParams(params("sort=price-asc"))).toMatchObject({ sort: "none" });
    expect(searchParams(params("sort=newest"))).toMatchObject({ sort: "none" });
    expect(regularListParams(params(`genre=${"x".repeat(80)}`)).genre).toHaveLength(40);
  });

  it("reads the adult production search and the full-search query, trimmed", () => {
    expect(adultListParams(params("production=%20%20Demo%20%20Reel%20"))).toEqual({
      page: 1,
      sort: "none",
      production: "Demo Reel",
    });
    expect(adultListParams(params("production=%20"))).toMatchObject({ production: undefined });
    expect(searchParams(params("query=%20alien%20&page=2"))).toEqual({
      page: 2,
      sort: "none",
      query: "alien",
    });
  });

  it("rewrites the page in a URL, dropping it for page 1", () => {
    expect(withPage(new URL("http://x/movies?disc=DVD&page=99"), 4)).toBe(
      "/movies?disc=DVD&page=4",
    );
    expect(withPage(new URL("http://x/movies?page=99"), 1)).toBe("/movies");
  });
});

describe("search text", () => {
  it("treats LIKE wildcards literally and blank input as nothing", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(normalizeQuery("   ")).toBe("");
    expect(normalizeQuery(null)).toBe("");
    expect(normalizeQuery("  the   godfather ")).toBe("the godfather");
  });
});
