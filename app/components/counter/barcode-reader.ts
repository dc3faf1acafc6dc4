// Loaded only when a clerk presses "Scan with the camera" (a dynamic import), so the counter's
// first load carries none of it.
import zxingWasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

/**
 * What the counter reads: the retail codes on discs and goods and Code 128 labels, which it sells
 * by, and QR codes: a receipt's (its sale's address, for a return) and a pickup's (its code, in
 * the customer's e-mail).
 */
export const CAMERA_FORMATS = ["ean_13", "ean_8", "upc_a", "upc_e", "code_128", "qr_code"] as const;

/** Reads the codes in the video's current frame. */
export type CodeReader = {
  /** "native" for the browser's own BarcodeDetector, "zxing" for the shop's copy of ZXing. */
  kind: "native" | "zxing";
  read(video: HTMLVideoElement): Promise<string[]>;
};

type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
type DetectorClass = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<readonly string[]>;
};

/**
 * The browser's BarcodeDetector when it reads all of the counter's formats (Chrome on Android,
 * macOS and ChromeOS, for instance), otherwise the `barcode-detector` package's, which runs ZXing
 * compiled to WebAssembly. A failure to load it rejects, for the clerk's message.
 */
export async function loadCodeReader(): Promise<CodeReader> {
  const native = await nativeDetector();
  const detector = native ?? (await zxingDetector());
  return {
    kind: native ? "native" : "zxing",
    async read(video) {
      const found = await detector.detect(video);
      return found.map((barcode) => barcode.rawValue.trim()).filter((code) => code !== "");
    },
  };
}

async function nativeDetector(): Promise<Detector | undefined> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return undefined;
  try {
    const supported = await Native.getSupportedFormats();
    if (!CAMERA_FORMATS.every((format) => supported.includes(format))) return undefined;
    return new Native({ formats: [...CAMERA_FORMATS] });
  } catch {
    return undefined;
  }
}

/**
 * The package fetches its .wasm from a public CDN unless told otherwise: the shop serves its own
 * copy from /assets (built from the package, under a hashed name), so the counter needs no other
 * host, and the Content-Security-Policy's connect-src stays 'self'. One function for every call,
 * because the package keeps its module while the overrides it is given are the same.
 */
const overrides = {
  locateFile: (path: string, prefix: string) =>
    path.endsWith(".wasm") ? new URL(zxingWasmUrl, window.location.href).href : prefix + path,
};

async function zxingDetector(): Promise<Detector> {
  const { BarcodeDetector, prepareZXingModule, purgeZXingModule } =
    await import("barcode-detector/ponyfill");
  try {
    // Fetched and compiled now, so a failure is the clerk's message at once, not a silent camera.
    await prepareZXingModule({ overrides, fireImmediately: true });
  } catch (error) {
    // The package would keep the failed module; the next press tries again.
    purgeZXingModule();
    throw error;
  }
  return new BarcodeDetector({ formats: [...CAMERA_FORMATS] });
}
