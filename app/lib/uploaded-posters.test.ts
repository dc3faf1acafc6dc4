import { describe, expect, it } from "vitest";
import { drawnPosterUrl, posterSrc, posterSrcSet } from "./posters.ts";
import {
  parseUploadedPosterFile,
  uploadedPosterId,
  uploadedPosterSrc,
  uploadedPosterValue,
} from "./uploaded-posters.ts";

const id = "0123456789abcdef0123456789abcdef";
const adultId = `adult-${id}`;

describe("uploaded poster values and addresses", () => {
  it("stores upload:{id} and reads it back", () => {
    expect(uploadedPosterValue(id)).toBe(`upload:${id}`);
    expect(uploadedPosterId(`upload:${id}`)).toBe(id);
    expect(uploadedPosterId(`upload:${adultId}`)).toBe(adultId);
    expect(() => uploadedPosterValue("../x")).toThrow();
    for (const value of [null, "", "https://img.example/a.jpg", "upload:../x", `upload:${id}x`]) {
      expect(uploadedPosterId(value)).toBeUndefined();
    }
  });

  it("gives src and a srcset of every width", () => {
    expect(uploadedPosterSrc(`upload:${id}`)).toBe(`/uploads/posters/${id}-320.webp`);
    expect(posterSrcSet(uploadedPosterSrc(`upload:${id}`)!)).toBe(
      `/uploads/posters/${id}-160.webp 160w, /uploads/posters/${id}-320.webp 320w, /uploads/posters/${id}-640.webp 640w`,
    );
    expect(uploadedPosterSrc("https://img.example/a.jpg")).toBeUndefined();
  });

  it("parses requested file names strictly", () => {
    expect(parseUploadedPosterFile(`${id}-640.webp`)).toEqual({ id, width: 640, adult: false });
    expect(parseUploadedPosterFile(`${adultId}-160.webp`)).toEqual({
      id: adultId,
      width: 160,
      adult: true,
    });
    for (const file of [undefined, `${id}-641.webp`, `../${id}-640.webp`, `${id}-640.webp/`]) {
      expect(parseUploadedPosterFile(file)).toBeUndefined();
    }
  });
});

describe("posterSrc", () => {
  it("draws a poster when there is none, and keeps imported addresses", () => {
    expect(posterSrc("regular", 7, null)).toBe("/posters/regular/7-320.webp");
    expect(posterSrc("coming-soon", 3, "")).toBe("/posters/coming-soon/3-320.webp");
    expect(posterSrc("regular", 7, "https://img.example/a.jpg")).toBe("https://img.example/a.jpg");
  });

  it("points at the uploaded poster's default width", () => {
    expect(posterSrc("regular", 7, `upload:${id}`)).toBe(`/uploads/posters/${id}-320.webp`);
    expect(posterSrc("adult", 7, `upload:${adultId}`)).toBe(`/uploads/posters/${adultId}-320.webp`);
  });

  it("falls back to the drawn poster for a malformed or mismatched upload", () => {
    expect(posterSrc("regular", 7, "upload:nonsense")).toBe("/posters/regular/7-320.webp");
    expect(posterSrc("adult", 7, `upload:${id}`)).toBe("/posters/adult/7-320.webp");
    expect(posterSrc("regular", 7, `upload:${adultId}`)).toBe("/posters/regular/7-320.webp");
  });
});

describe("posterSrcSet", () => {
  it("lists every width of a drawn poster, from the address of any of them", () => {
    const srcSet =
      "/posters/adult/12-160.webp 160w, /posters/adult/12-320.webp 320w, /posters/adult/12-640.webp 640w";
    expect(posterSrcSet(drawnPosterUrl("adult", 12))).toBe(srcSet);
    expect(posterSrcSet(drawnPosterUrl("adult", 12, 640))).toBe(srcSet);
  });

  it("has none for other images", () => {
    for (const src of [
      "/posters/regular/1.svg",
      "/posters/regular/1-999.webp",
      "https://img.example/uploads/posters/x-320.webp",
      "https://img.example/posters/regular/1-320.webp",
      "/images/default-poster.svg",
    ]) {
      expect(posterSrcSet(src), src).toBeUndefined();
    }
  });
});
