import sharp from "sharp";
import { renderSVG } from "uqr";

/**
 * A QR code as a PNG image, for e-mail: mail clients show an attached PNG (by its Content-ID)
 * where they drop inline SVG and data URLs. Drawn with the receipt's QR encoder, scaled without
 * smoothing so every module stays sharp for a scanner.
 */
export async function qrPng(text: string, size = 240): Promise<Buffer> {
  return sharp(Buffer.from(renderSVG(text, { border: 2 })))
    .resize(size, size, { kernel: "nearest" })
    .png()
    .toBuffer();
}
