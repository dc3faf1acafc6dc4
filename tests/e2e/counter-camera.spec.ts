import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { writeBarcodeVideo, writeQrVideo } from "#tests/support/barcode-video.ts";
import { allViolations } from "./support/axe.ts";
import { atTheCounter, scanCode, takeTurnsAtTheTill } from "./support/counter.ts";
import { expect, test } from "./support/fixtures.ts";
import { shelfBarcode, shelveProduct } from "./support/shop-database.ts";

// The shop has one till: these tests take turns at it with the counter's other spec files.
takeTurnsAtTheTill();

/**
 * A browser whose camera films a printed EAN-13 (Chromium's fake capture device playing a video
 * drawn from the code), with the camera allowed as a clerk would allow it. Headless Chromium on
 * Linux has no BarcodeDetector of its own, so the counter reads the frames with the shop's copy of
 * ZXing, as a browser without one does.
 */
const withCamera = test.extend<object, { filmedCode: string; film: string }>({
  // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  filmedCode: [async ({}, use) => use(shelfBarcode()), { scope: "worker" }],
  /** The camera's video file: the EAN-13's, unless a test films something else for a while. */
  film: [
    async ({ filmedCode }, use) => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), "counter-camera-"));
      await use(writeBarcodeVideo(path.join(folder, "barcode.y4m"), filmedCode));
      fs.rmSync(folder, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  launchOptions: [
    async ({ launchOptions, film }, use) => {
      await use({
        ...launchOptions,
        args: [
          ...(launchOptions.args ?? []),
          "--use-fake-device-for-media-stream",
          "--use-fake-ui-for-media-stream",
          `--use-file-for-fake-video-capture=${film}`,
        ],
      });
    },
    { scope: "worker" },
  ],
});

/** Keeps every camera stream the page is given, to see that closing stops it. */
async function watchCameraStreams(page: Page) {
  await page.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams = streams;
    const devices = navigator.mediaDevices;
    const getUserMedia = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      streams.push(stream);
      return stream;
    };
  });
  return {
    /** How many streams were given, and how many of their tracks are still live. */
    state: () =>
      page.evaluate(() => {
        const streams = (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams;
        const tracks = streams.flatMap((stream) => stream.getTracks());
        return {
          streams: streams.length,
          live: tracks.filter((track) => track.readyState === "live").length,
        };
      }),
  };
}

withCamera(
  "the camera adds a product held up to it once, and stops when closed",
  async ({ page, filmedCode, baseURL }) => {
    const tag = String(Date.now()).slice(-6);
    const name = `Camera Poster ${tag}`;
    await shelveProduct({ type: "item", name, priceCents: 1250, stock: 5, barcode: filmedCode });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const camera = await watchCameraStreams(page);
    const scan = await atTheCounter(page);
    const lines = page.getByRole("list", { name: "Lines of this sale" });

    // By keyboard: from the scan field, past Add, to the camera's button.
    await expect(scan).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const button = page.getByRole("button", { name: "Scan with the camera" });
    await expect(button).toBeFocused();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Scan with the camera" });
    const status = dialog.getByRole("status");
    // Added, then read again in later frames and not added again: the clerk is told how to add
    // another of it.
    await expect(status).toHaveText(
      `Added “${name}”. It is still in view: take it away and show it again to add another.`,
    );
    // The reader came from the shop itself, and nothing else was asked of any other host.
    const wasm = requests.find((url) => /\/assets\/zxing_reader-[\w-]+\.wasm$/.test(url));
    expect(wasm).toBeDefined();
    expect(requests.filter((url) => !url.startsWith(`${baseURL}/`))).toEqual([]);
    // Compressed ahead (about a third of its size), kept for a year, compiled as it streams in.
    const served = await page.request.get(wasm!, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(served.headers()).toMatchObject({
      "content-type": "application/wasm",
      "content-encoding": "br",
      "cache-control": "public, max-age=31536000, immutable",
    });
    expect(await allViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await allViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 768 });

    // Its one button closes it, by keyboard too; focus is back in the scan field.
    const close = dialog.getByRole("button", { name: "Close the camera" });
    await expect(close).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(scan).toBeFocused();
    expect(await camera.state()).toEqual({ streams: 1, live: 0 });
    await expect(page.getByRole("button", { name: "Add", exact: true })).toBeVisible();
    await expect(lines.getByRole("listitem")).toHaveCount(1);
    await expect(lines.getByRole("listitem")).toContainText(name);
    await expect(lines.getByRole("listitem")).toContainText("1 × $12.50");

    // Opened again, the camera sees the poster come into view: one more. Esc closes it.
    await button.click();
    await expect(status).toHaveText(
      `Added “${name}”. It is still in view: take it away and show it again to add another.`,
    );
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(scan).toBeFocused();
    expect(await camera.state()).toEqual({ streams: 2, live: 0 });
    await expect(page.getByRole("button", { name: "Add", exact: true })).toBeVisible();
    await expect(lines.getByRole("listitem")).toHaveCount(1);
    await expect(lines.getByRole("listitem")).toContainText("2 × $12.50");
  },
);

withCamera(
  "the camera opens a paid sale from its receipt's QR code, for a return",
  async ({ page, film, filmedCode, baseURL }) => {
    const code = shelfBarcode();
    const name = `Receipt Poster ${String(Date.now()).slice(-6)}`;
    await shelveProduct({ type: "item", name, priceCents: 1000, stock: 2, barcode: code });
    await atTheCounter(page);
    await scanCode(page, code);
    const payment = page.getByRole("region", { name: "Payment" });
    await payment.getByLabel("Cash tendered ($)").fill("20");
    await payment.getByRole("button", { name: /^Pay \$[\d.]+ in cash$/ }).click();
    const paid = page.getByText(/Sale S-\d+ paid:/);
    await expect(paid).toBeVisible();
    const sale = (await paid.textContent())!.match(/S-\d+/)![0];

    // The customer is back with the receipt: its QR code is the sale's address.
    writeQrVideo(film, `${baseURL}/counter/sales/${sale}`);
    try {
      await page.getByRole("button", { name: "Scan with the camera" }).click();
      await expect(page.getByRole("heading", { level: 1, name: `Receipt ${sale}` })).toBeVisible();
      await expect(page.getByRole("link", { name: "Return items" })).toBeVisible();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    } finally {
      writeBarcodeVideo(film, filmedCode);
    }
  },
);

withCamera("a reader that cannot load is said beside the button", async ({ page }) => {
  const camera = await watchCameraStreams(page);
  const scan = await atTheCounter(page);
  await page.route(/\/assets\/zxing_reader-[\w-]+\.wasm$/, (route) => route.abort());
  await page.getByRole("button", { name: "Scan with the camera" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "The barcode reader could not load: reload the page and try again, or use the scanner.",
  );
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(scan).toBeFocused();
  expect(await camera.state()).toEqual({ streams: 1, live: 0 });
  await expect(
    page.getByRole("button", { name: "Scan with the camera" }),
  ).toHaveAccessibleDescription(
    "The barcode reader could not load: reload the page and try again, or use the scanner.",
  );
  expect(await allViolations(page)).toEqual([]);
});

test("the camera's own code that cannot be fetched is said beside the button", async ({ page }) => {
  const scan = await atTheCounter(page);
  await page.route(/\/assets\/(camera-dialog|barcode-reader)-[\w-]+\.js$/, (route) =>
    route.abort(),
  );
  await page.getByRole("button", { name: "Scan with the camera" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "The barcode reader could not load: reload the page and try again, or use the scanner.",
  );
  await expect(scan).toBeFocused();
  // The counter itself goes on.
  await expect(page.getByText("Nothing scanned yet.")).toBeVisible();
});

withCamera("a camera the browser refuses is said beside the button", async ({ page }) => {
  await atTheCounter(page);
  // The browser refuses this page the camera, as when the clerk blocked it in its settings.
  await page.route(/\/counter$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      headers: { ...response.headers(), "permissions-policy": "camera=()" },
    });
  });
  await page.reload();
  await page.getByRole("button", { name: "Scan with the camera" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "The camera was refused: allow this page to use the camera in the browser's settings, or use the scanner.",
  );
  await expect(page.getByRole("dialog")).toBeHidden();
  expect(await allViolations(page)).toEqual([]);
});

test("a device without a camera is said beside the button", async ({ page }) => {
  const scan = await atTheCounter(page);
  await page.getByRole("button", { name: "Scan with the camera" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "No camera was found on this device: use the scanner or type the code.",
  );
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(scan).toBeFocused();
  // The scan field goes on as before.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await allViolations(page)).toEqual([]);
});

test("only the back office and sign-in pages may compile the camera's reader", async ({ page }) => {
  const wasm = /script-src 'self' 'nonce-[^']+' 'wasm-unsafe-eval'/;
  const policyOf = async (address: string) =>
    (await page.goto(address))?.headers()["content-security-policy"];
  expect(await policyOf("/login")).toMatch(wasm);
  await atTheCounter(page);
  expect(await policyOf("/counter")).toMatch(wasm);
  expect(await policyOf("/admin")).toMatch(wasm);
  for (const storefront of ["/cart", "/movies", "/"]) {
    const policy = await policyOf(storefront);
    expect(policy).toMatch(/script-src 'self' 'nonce-/);
    expect(policy).not.toContain("wasm-unsafe-eval");
  }
  // What the browser makes of it: the storefront's page refuses WebAssembly; its link to the
  // back office loads a document that allows it, on the way to the counter.
  const compiles = () =>
    page.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => true,
        () => false,
      ),
    );
  expect(await compiles()).toBe(false);
  await page.getByRole("button", { name: "Shop Clerk" }).click();
  await page.getByRole("menuitem", { name: "Back Office" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  expect(await compiles()).toBe(true);
});
