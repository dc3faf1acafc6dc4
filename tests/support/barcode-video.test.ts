import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { freshBarcode } from "./barcodes.ts";
import {
  drawEan13,
  drawQr,
  ean13CheckDigit,
  ean13Modules,
  y4mVideo,
  type LumaFrame,
} from "./barcode-video.ts";

// The reader the counter's camera falls back to in a browser without BarcodeDetector, given its
// .wasm from the package as the shop serves it.
const wasm = fs.readFileSync(
  createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm"),
);
prepareZXingModule({
  overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
});

/** The grey picture as the RGBA pixels a canvas gives. */
function rgba({ width, height, luma }: LumaFrame) {
  const data = new Uint8ClampedArray(width * height * 4);
  luma.forEach((value, i) => data.set([value, value, value, 255], i * 4));
  return { data, width, height, colorSpace: "srgb" as const };
}

describe("an EAN-13 drawn for the fake camera", () => {
  test("its check digit is GS1's", () => {
    // The example on GS1's check digit calculator page, and a book's ISBN.
    expect(ean13CheckDigit("629104150021")).toBe("3");
    expect(ean13CheckDigit("978030640615")).toBe("7");
    expect(() => ean13Modules("9780306406158")).toThrow("should be 7");
  });

  test("its modules are the standard's: guards, the first digit's parity, 95 in all", () => {
    const modules = ean13Modules("4006381333931");
    expect(modules).toHaveLength(95);
    expect(modules.slice(0, 3)).toBe("101");
    expect(modules.slice(45, 50)).toBe("01010");
    expect(modules.slice(92)).toBe("101");
    // First digit 4: the left half is written L G L L G G; its first digit, 0, in L is 0001101.
    expect(modules.slice(3, 10)).toBe("0001101");
    // Its second digit, 0, in G: 0100111.
    expect(modules.slice(10, 17)).toBe("0100111");
    // The right half's last digit, 1, in R: 1100110.
    expect(modules.slice(85, 92)).toBe("1100110");
  });

  test("the reader reads what is drawn, for any code", async () => {
    for (const code of ["4006381333931", "0012345678905", freshBarcode(13), freshBarcode(13)]) {
      const [read] = await readBarcodes(rgba(drawEan13(code)), { formats: ["EAN13"] });
      expect(read?.text).toBe(code);
    }
  });

  test("the video is YUV4MPEG2 frames of the picture and neutral colour", () => {
    const frame = drawEan13("4006381333931", { width: 320, height: 240, moduleWidth: 2 });
    const video = y4mVideo(frame, 3);
    const header = "YUV4MPEG2 W320 H240 F10:1 Ip A1:1 C420\n";
    expect(video.subarray(0, header.length).toString("latin1")).toBe(header);
    const frameBytes = "FRAME\n".length + 320 * 240 * 1.5;
    expect(video.length).toBe(header.length + 3 * frameBytes);
    const second = header.length + frameBytes;
    expect(video.subarray(second, second + 6).toString("latin1")).toBe("FRAME\n");
    expect(video.subarray(second + 6, second + 6 + 320 * 240)).toEqual(Buffer.from(frame.luma));
    expect(
      video.subarray(second + 6 + 320 * 240, second + frameBytes).every((v) => v === 128),
    ).toBe(true);
  });
});

describe("a QR code drawn for the fake camera", () => {
  test("the reader reads what is drawn: a receipt's address, a pickup code", async () => {
    for (const text of ["http://127.0.0.1:3111/counter/sales/S-100042", "K7M2QX9P"]) {
      const [read] = await readBarcodes(rgba(drawQr(text)), { formats: ["QRCode"] });
      expect(read?.text).toBe(text);
    }
  });

  test("keeps its quiet zone inside the picture", () => {
    const long = `http://shop.example/counter/sales/S-${"9".repeat(200)}`;
    expect(() => drawQr(long, { width: 320, height: 240 })).toThrow("too small");
  });
});
