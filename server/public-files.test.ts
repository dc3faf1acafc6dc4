import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publicFileAddresses } from "./public-files.ts";

describe("which addresses are looked for among the public files", () => {
  const client = fs.mkdtempSync(path.join(os.tmpdir(), "public-files-"));
  for (const dir of ["assets", "images"]) fs.mkdirSync(path.join(client, dir));
  for (const file of ["favicon.svg", "favicon.svg.br"])
    fs.writeFileSync(path.join(client, file), "");
  const isPublicFile = publicFileAddresses(client);

  it("looks on disk for the files and folders the build put there", () => {
    expect(isPublicFile("/favicon.svg")).toBe(true);
    expect(isPublicFile("/images/default-poster.svg")).toBe(true);
  });

  it("does not look on disk for pages, drawn or uploaded posters, or assets already answered", () => {
    for (const address of [
      "/",
      "/movies",
      "/movies/12",
      "/robots.txt",
      "/posters/regular/12-320.webp",
      "/uploads/posters/0123456789abcdef0123456789abcdef-320.webp",
      "/assets/missing-file.js",
      "/favicon.svg/extra",
      "/images",
    ]) {
      expect(isPublicFile(address), address).toBe(false);
    }
  });
});
