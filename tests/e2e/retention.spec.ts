import { ticketStatusPath } from "#app/domain/repair-tickets/status-link.server.ts";
import { expect, test } from "./support/fixtures.ts";
import { seriousViolations } from "./support/axe.ts";
import { closedRepairTicket, shopAuthSecret } from "./support/shop-database.ts";

// Personal data the shop stops showing after its retention period (docs/security.md).

test("a repair's status link works for 90 days after the repair is closed, then says it expired", async ({
  page,
}) => {
  const recent = await closedRepairTicket(89);
  const response = await page.goto(ticketStatusPath(recent, shopAuthSecret()));
  expect(response?.status()).toBe(200);
  await expect(
    page.getByRole("heading", { level: 1, name: "Your Lenovo T480 laptop" }),
  ).toBeVisible();
  await expect(page.getByText("Your device was returned to you unrepaired.")).toBeVisible();

  const old = await closedRepairTicket(91);
  const ended = await page.goto(ticketStatusPath(old, shopAuthSecret()));
  expect(ended?.status()).toBe(410);
  await expect(
    page.getByRole("heading", { level: 1, name: "This repair link has expired" }),
  ).toBeVisible();
  await expect(page.getByText(`Repair R-${old} was closed on`)).toContainText(
    "Its status link works for 90 days after a repair is closed.",
  );
  await expect(page.getByText(/^For anything about it, call/)).toContainText(`quoting R-${old}.`);
  // Nothing of the device or the work is shown any more.
  await expect(page.getByText("Lenovo")).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});
