import * as chromeLauncher from "chrome-launcher";

/**
 * How the Lighthouse benchmarks start Chromium: headless, without a GPU, and with
 * --hide-scrollbars, as Puppeteer starts headless Chromium.
 *
 * Without --hide-scrollbars, about one run in three painted its first frame 1 or 2 seconds late,
 * whatever the page (`node bench/lighthouse-trace.ts --show-scrollbars` shows it). Each
 * navigation gives the tab a new surface, and the display waits for it; meanwhile the page being
 * replaced keeps drawing frames for its overlay scrollbar's fade, onto the old surface, which the
 * display never draws. Once more than 3 such frames wait, Chromium's display compositor sends that
 * renderer one frame signal a second ("ThrottleUndrawnFrames"), so the new page's first frame,
 * ready at 0.2–0.3 s, waited for the next whole second. Lighthouse then projects that wait into
 * FCP and LCP. The flag takes the scrollbar away; nothing on the page is changed (with mobile
 * emulation, scrollbars are overlays and take no room).
 */
export function chromiumFlags({ scrollbars = false } = {}) {
  return [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    ...(scrollbars ? [] : ["--hide-scrollbars"]),
  ];
}

/** The Chromium the browser tests use (CHROMIUM_PATH, default /usr/bin/chromium). */
export function launchChromium(flags: string[]) {
  return chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: flags,
  });
}
