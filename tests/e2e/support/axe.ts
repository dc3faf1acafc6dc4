import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** What axe finds on the page that is serious or critical, as "rule: targets" lines. */
export async function seriousViolations(page: Page) {
  return (await axeViolations(page))
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => violation.line);
}

/** Everything axe finds on the page, whatever its impact, as "rule: targets" lines. */
export async function allViolations(page: Page) {
  return (await axeViolations(page)).map((violation) => violation.line);
}

async function axeViolations(page: Page) {
  // Legacy mode runs axe in the page itself (its frames included). The default opens a blank
  // page for each run to gather the frames' results in, which doubles the time of every check;
  // the shop's pages have no cross-origin frames for which that would matter.
  // Every rule axe runs by default, and WCAG 2.2 AA's target size (2.5.8), which axe leaves
  // off by default: a phone shopper's taps need 24 px targets, or room around smaller ones.
  // Only violations are reported in full: every rule still runs on every element, but axe no
  // longer describes each element that passed (a third to a half of a check's time on a list).
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ rules: { "target-size": { enabled: true } }, resultTypes: ["violations"] })
    .analyze();
  return results.violations.map((violation) => ({
    impact: violation.impact,
    line: `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
  }));
}
