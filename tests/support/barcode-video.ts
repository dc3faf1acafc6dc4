import fs from "node:fs";
import { encode } from "uqr";
import { hasValidCheckDigit } from "#app/domain/stock/barcode.ts";

// A camera pointed at a barcode, for the browser's fake capture device
// (`--use-file-for-fake-video-capture`): an EAN-13 drawn as a printer would, or a QR code as a
// receipt prints it, written as YUV4MPEG2 frames. The bars follow GS1's EAN-13 tables: the first digit is not drawn but chooses
// which of the left half's digits are written with the odd (L) or even (G) set.

const L_CODES = [
  "0001101",
  "0011001",
  "0010011",
  "0111101",
  "0100011",
  "0110001",
  "0101111",
  "0111011",
  "0110111",
  "0001011",
];
/** The right half's set: each L pattern with its modules swapped (dark for light). */
const R_CODES = L_CODES.map((code) => [...code].map((bit) => (bit === "1" ? "0" : "1")).join(""));
/** The even set: each R pattern read backwards. */
const G_CODES = R_CODES.map((code) => [...code].reverse().join(""));
/** Which set writes each of the left half's six digits, by the first digit. */
const PARITY = [
  "LLLLLL",
  "LLGLGG",
  "LLGGLG",
  "LLGGGL",
  "LGLLGG",
  "LGGLLG",
  "LGGGLL",
  "LGLGLG",
  "LGLGGL",
  "LGGLGL",
];

/** The twelve digits' check digit (GS1 mod 10): the one that makes the thirteen valid. */
export function ean13CheckDigit(twelve: string): string {
  if (!/^\d{12}$/.test(twelve)) throw new Error(`An EAN-13 has 12 digits before its check digit.`);
  return [..."0123456789"].find((digit) => hasValidCheckDigit(twelve + digit))!;
}

/**
 * The EAN-13's 95 modules, "1" dark and "0" light: start guard, six left digits, centre guard,
 * six right digits, end guard. A code whose last digit does not check is refused, as a printer's
 * software would.
 */
export function ean13Modules(code: string): string {
  if (!/^\d{13}$/.test(code)) throw new Error(`An EAN-13 has 13 digits, not “${code}”.`);
  if (ean13CheckDigit(code.slice(0, 12)) !== code[12]) {
    throw new Error(
      `The check digit of “${code}” should be ${ean13CheckDigit(code.slice(0, 12))}.`,
    );
  }
  const digits = [...code].map(Number);
  const parity = PARITY[digits[0]!]!;
  const left = digits
    .slice(1, 7)
    .map((digit, i) => (parity[i] === "L" ? L_CODES : G_CODES)[digit]!)
    .join("");
  const right = digits
    .slice(7)
    .map((digit) => R_CODES[digit]!)
    .join("");
  return `101${left}01010${right}101`;
}

export type LumaFrame = { width: number; height: number; luma: Uint8Array };

/**
 * One grey picture of the code: white paper with `quiet` light modules on each side (GS1 asks for
 * 11 on the left and 7 on the right; more is safer), each module `moduleWidth` pixels wide, the
 * bars across the middle half of the picture's height.
 */
export function drawEan13(
  code: string,
  { width = 640, height = 480, moduleWidth = 4 } = {},
): LumaFrame {
  const modules = ean13Modules(code);
  const barsWidth = modules.length * moduleWidth;
  const left = Math.floor((width - barsWidth) / 2);
  if (left < 11 * moduleWidth)
    throw new Error("The picture is too narrow for the code's quiet zones.");
  // Video's range: 16 is black and 235 white.
  const luma = new Uint8Array(width * height).fill(235);
  const top = Math.floor(height / 4);
  const bottom = height - top;
  for (let y = top; y < bottom; y++) {
    for (let m = 0; m < modules.length; m++) {
      if (modules[m] !== "1") continue;
      const start = y * width + left + m * moduleWidth;
      luma.fill(16, start, start + moduleWidth);
    }
  }
  return { width, height, luma };
}

/**
 * One grey picture of a QR code of `text`, drawn by the receipt's own encoder: each module
 * `moduleSize` pixels square, in the middle of white paper with at least the standard's quiet
 * zone of four modules around it.
 */
export function drawQr(
  text: string,
  { width = 640, height = 480, moduleSize = 8 } = {},
): LumaFrame {
  const { data, size } = encode(text, { border: 0 });
  const side = size * moduleSize;
  if (side + 8 * moduleSize > Math.min(width, height)) {
    throw new Error("The picture is too small for the code and its quiet zone.");
  }
  const luma = new Uint8Array(width * height).fill(235);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < moduleSize; dy++) {
        const start = (top + y * moduleSize + dy) * width + left + x * moduleSize;
        luma.fill(16, start, start + moduleSize);
      }
    }),
  );
  return { width, height, luma };
}

/**
 * The picture as a YUV4MPEG2 video of `frames` frames (4:2:0, neutral colour), the format
 * Chromium's fake camera plays in a loop.
 */
export function y4mVideo(frame: LumaFrame, frames = 5): Buffer {
  const { width, height, luma } = frame;
  if (width % 2 || height % 2) throw new Error("4:2:0 video needs an even width and height.");
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420\n`, "latin1");
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const parts: Buffer[] = [header];
  for (let i = 0; i < frames; i++) {
    parts.push(Buffer.from("FRAME\n", "latin1"), Buffer.from(luma), chroma);
  }
  return Buffer.concat(parts);
}

/** Writes a camera's view of the EAN-13 `code` to `file` (a .y4m), for the fake capture device. */
export function writeBarcodeVideo(file: string, code: string) {
  fs.writeFileSync(file, y4mVideo(drawEan13(code)));
  return file;
}

/**
 * Writes a camera's view of a QR code of `text` to `file`, in place of what it filmed before:
 * the fake capture device reads its file each time a page starts the camera.
 */
export function writeQrVideo(file: string, text: string) {
  fs.writeFileSync(file, y4mVideo(drawQr(text)));
  return file;
}
