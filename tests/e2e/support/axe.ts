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
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    impact: violation.impact,
    line: `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
  }));
}
