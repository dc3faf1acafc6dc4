// The checks every uploaded image passes (posters, repair intake photos) before anything is
// stored: its name, its size, what its bytes really are, its dimensions before decoding, and a
// full decode within limits. What is stored is always a re-encoding, never the upload itself.
import { fileTypeFromBuffer } from "file-type";
import sharp, { type Metadata, type OutputInfo } from "sharp";

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 40_000_000;
/** No image longer than this on either side is decoded, whatever its pixel count. */
export const MAX_IMAGE_SIDE = 16_000;

/** The messages of a refused image, naming what it was meant to be ("poster", "photo"). */
export function imageMessages(noun: "poster" | "photo") {
  return {
    empty: `The ${noun} file is empty.`,
    tooLarge: `The ${noun} is larger than 10 MB.`,
    name: "The file name is not allowed; rename the file and try again.",
    type: `The ${noun} must be a JPEG, PNG, WebP or AVIF image.`,
    pixels: "The image is too large (more than 40 megapixels).",
    side: `The image is too large (more than ${MAX_IMAGE_SIDE.toLocaleString("en-US")} pixels on a side).`,
    damaged: "The image could not be read; it may be damaged.",
    storage: `The ${noun} could not be saved right now. Please try again.`,
  } as const;
}
export type ImageMessages = ReturnType<typeof imageMessages>;

/** What `file-type` finds in the bytes, and the loader sharp must then agree on. */
const ACCEPTED: Record<string, string> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/avif": "heif",
};

// Control characters (NUL, line breaks among them) and both path separators.
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f/\\]/;

/**
 * The name is never used (files get server-chosen names), but one carrying a path, control
 * characters or an absurd length says something is wrong with the client, so it is refused.
 */
function isAcceptableName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  if (UNSAFE_NAME_CHARACTERS.test(name)) return false;
  return name !== "." && name !== "..";
}

class ImageRefused extends Error {}

function refuse(message: string): never {
  throw new ImageRefused(message);
}

/** Raw sRGB pixels of an accepted image, upright, of at most the size asked for. */
export type DecodedImage = {
  data: Buffer;
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
};

/** A box an image is fitted inside: never upscaled, aspect ratio kept. */
export type Box = { width: number; height: number };

async function decode(bytes: Uint8Array, loader: string, box: Box, messages: ImageMessages) {
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" as const };
  let metadata: Metadata;
  try {
    // Reads the header only; the limits are checked below with their own messages.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    refuse(messages.damaged);
  }
  // sharp picks its loader from the bytes too; both readings must agree (a polyglot must not
  // be read as one format by file-type and as another by libvips).
  if (metadata.format !== loader) refuse(messages.type);
  if (loader === "heif" && metadata.compression !== "av1") refuse(messages.type);
  const { width, height } = metadata;
  if (!width || !height) refuse(messages.damaged);
  // Checked before decoding: a small file can declare a huge image (a decompression bomb).
  if (width * height > MAX_IMAGE_PIXELS) refuse(messages.pixels);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) refuse(messages.side);

  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { ...options, autoOrient: true })
      .resize({ ...box, fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw()
      .timeout({ seconds: 20 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) refuse(messages.pixels);
    refuse(messages.damaged);
  }
  return {
    data: decoded.data,
    raw: {
      width: decoded.info.width,
      height: decoded.info.height,
      channels: decoded.info.channels as 1 | 2 | 3 | 4,
    },
  };
}

/**
 * Checks an uploaded image and decodes it once into at most `box` (orientation applied, every
 * piece of metadata dropped). The bytes must really be a JPEG, PNG, WebP or AVIF image that
 * decodes in full within the size and pixel limits; anything else is refused with a message.
 */
export async function checkUploadedImage(
  bytes: Uint8Array,
  originalName: string,
  options: { box: Box; messages: ImageMessages },
): Promise<{ ok: true; image: DecodedImage } | { ok: false; message: string }> {
  const { messages } = options;
  try {
    if (!isAcceptableName(originalName)) refuse(messages.name);
    if (bytes.byteLength === 0) refuse(messages.empty);
    if (bytes.byteLength > MAX_IMAGE_BYTES) refuse(messages.tooLarge);
    const detected = await fileTypeFromBuffer(bytes);
    const loader = detected && ACCEPTED[detected.mime];
    if (!loader) refuse(messages.type);
    return { ok: true, image: await decode(bytes, loader, options.box, messages) };
  } catch (error) {
    if (error instanceof ImageRefused) return { ok: false, message: error.message };
    throw error;
  }
}

/** A checked image as WebP, fitted inside `box`: the only form an upload is ever stored in. */
export async function encodeWebp(image: DecodedImage, box: Box) {
  const { data, info } = await sharp(image.data, { raw: image.raw })
    .resize({ ...box, fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80, effort: 4 })
    .toBuffer({ resolveWithObject: true });
  return { webp: data, width: info.width, height: info.height };
}
