import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSprite, iconNames, SPRITE } from "./icon-sprite.ts";

describe("the icon sprite", () => {
  it("draws every icon the shop names, as committed", async () => {
    const names = iconNames();
    expect(names).toContain("shopping-cart");
    const sprite = await buildSprite(names);
    for (const name of names) expect(sprite).toContain(`<symbol id="${name}"`);
    // Adding an icon to icons.tsx without redrawing the sprite fails here.
    expect(fs.readFileSync(SPRITE, "utf8")).toBe(sprite);
  });

  it("reads the names from icon() calls, once each", () => {
    expect(
      iconNames('const A = icon("film");\nconst B = icon("x");\nconst C = icon("film");'),
    ).toEqual(["film", "x"]);
  });
});
