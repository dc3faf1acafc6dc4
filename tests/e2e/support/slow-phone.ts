import type { Page } from "@playwright/test";

/** A slow-4G round trip: no answer from the network, such as a part of the page's code, comes sooner. */
const ROUND_TRIP_MS = 562.5;

/**
 * Slow 4G as Lighthouse plays it (150 ms round trip and 1.6 Mbit/s, with DevTools' factors),
 * and a CPU four times slower. The page has loaded by then: what is measured is the tap.
 * Used by tests/e2e/slow-phone.spec.ts and bench/tap.ts.
 */
export async function slowPhone(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: ROUND_TRIP_MS,
    downloadThroughput: (1474.56 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}
