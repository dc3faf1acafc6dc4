import type { Page } from "@playwright/test";
import axe from "axe-core";

/** What axe finds on the page that is serious or critical, as "rule: targets" lines. */
export async function seriousViolations(page: Page) {
  return (await axeViolations(page))
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => violation.line);
}

/**
 * Everything axe finds on the page, whatever its impact, as "rule: targets" lines; `within` a
 * part of it (a CSS selector) when a test judges only the states it brings about.
 */
export async function allViolations(page: Page, within?: string) {
  return (await axeViolations(page, within)).map((violation) => violation.line);
}

type Violation = { id: string; impact?: string | null; nodes: { target: unknown[] }[] };

async function axeViolations(page: Page, within?: string) {
  // axe runs in the page itself, put there once per page: a page judged at two widths and in
  // its open states is judged without evaluating axe's 550 KB again each time (the Playwright
  // wrapper did so twice for every check, or opened a blank page for each check outside its
  // legacy mode). The shop's pages have no frames of their own for axe to reach into.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  // Every rule axe runs by default, and WCAG 2.2 AA's target size (2.5.8), which axe leaves
  // off by default: a phone shopper's taps need 24 px targets, or room around smaller ones.
  // Only violations are reported in full: every rule still runs on every element, but axe no
  // longer describes each element that passed (a third to a half of a check's time on a list).
  const violations = await page.evaluate(async (within) => {
    const found = await (window as unknown as { axe: typeof axe }).axe.run(within ?? document, {
      rules: { "target-size": { enabled: true } },
      resultTypes: ["violations"],
    });
    return found.violations as Violation[];
  }, within);
  return violations.map((violation) => ({
    impact: violation.impact,
    line: `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
  }));
}
