import fs from "node:fs";
import path from "node:path";
import { ZXING_WASM_VERSION } from "barcode-detector/ponyfill";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const readJson = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };

// The camera's reader is barcode-detector's code with the .wasm the shop serves from its own
// build (zxing-wasm's file): the two must be of one version, or the code cannot run the module.
test("the shop serves the .wasm that barcode-detector's code was built for", () => {
  expect(readJson("node_modules/zxing-wasm/package.json").version).toBe(ZXING_WASM_VERSION);
  expect(readJson("package.json").dependencies["zxing-wasm"]).toBe(ZXING_WASM_VERSION);
});
