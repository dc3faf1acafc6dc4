import { data, Link } from "react-router";
import { EstimateTable } from "#app/components/repair-estimate.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getDb } from "#app/db/client.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import { paidByLabel, ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { ticketMoney } from "#app/domain/repair-tickets/payments.server.ts";
import { ticketOfStatusLink } from "#app/domain/repair-tickets/status-link.server.ts";
import { deviceName, getTicket } from "#app/domain/repair-tickets/tickets.server.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { formatShopLongDate } from "#app/lib/shop-time.ts";
import { pageMeta, SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import type { Route } from "./+types/repairs.$label.$token.receipt";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Receipt for repair ${loaderData.label}` : "Repair receipt",
    "The receipt of a collected repair.",
  ),
  { name: "robots", content: "noindex" },
];

// The status link is the customer's key, and this page is under it: private, never indexed.
export const headers: Route.HeadersFunction = () => ({
  ...privatePageHeaders(),
  "X-Robots-Tag": "noindex",
});

/** The receipt of a collected ticket, for the customer (from the e-mail) and the counter alike. */
export async function loader({ params }: Route.LoaderArgs) {
  const desk = repairDesk();
  const number = ticketOfStatusLink(params.label, params.token, desk.secret);
  const notFound = () => data("There is no receipt for this repair.", { status: 404 });
  if (number === undefined) throw notFound();
  const found = await getTicket(getDb(), number);
  const ticket = found?.ticket;
  if (!ticket || ticket.status !== "collected" || !ticket.paymentMethod || !ticket.closedAt) {
    throw notFound();
  }
  const approved = found.estimates.find((estimate) => estimate.status === "approved") ?? null;
  const paidCents = ticket.paidCents ?? 0;
  const contact = shopContact();
  return {
    label: ticketLabel(number),
    name: ticket.customerName,
    device: deviceName(ticket),
    serial: ticket.deviceSerial,
    checkedIn: formatShopLongDate(ticket.createdAt, desk.timeZone),
    collected: formatShopLongDate(ticket.closedAt, desk.timeZone),
    estimate: approved,
    approved: approved ? formatUsd(approved.totalCents) : null,
    adjustment:
      approved && paidCents !== approved.totalCents
        ? formatUsd(paidCents - approved.totalCents)
        : null,
    paid: formatUsd(paidCents),
    paidBy: paidByLabel((await ticketMoney(getDb(), number)).payments.map((p) => p.method)),
    shop: { name: SHOP.name, address: SHOP_ADDRESS, phone: contact.phone, email: contact.email },
  };
}

export default function RepairReceipt({ loaderData: receipt }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-10 sm:px-6 print:p-0">
      <div className="flex flex-wrap gap-2 print:hidden">
        <Button type="button" onClick={() => window.print()}>
          Print
        </Button>
        <Link to=".." relative="path" className={buttonVariants({ variant: "outline" })}>
          Back to your repair
        </Link>
      </div>
      {/* Prints alone, without the shop's header and footer: see the print rules in app.css. */}
      <article className="repair-receipt flex flex-col gap-4 rounded-xl border bg-card p-5 print:rounded-none print:border-0 print:p-0">
        <header className="border-b pb-3">
          <p className="text-lg font-bold">{receipt.shop.name}</p>
          <p className="text-sm">{receipt.shop.address}</p>
          <p className="text-sm">
            {receipt.shop.phone} · {receipt.shop.email}
          </p>
        </header>
        <h1 className="text-2xl font-bold">Receipt for repair {receipt.label}</h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">Customer</dt>
          <dd>{receipt.name}</dd>
          <dt className="font-medium">Device</dt>
          <dd>
            {receipt.device}
            {receipt.serial ? ` (${receipt.serial})` : ""}
          </dd>
          <dt className="font-medium">Checked in</dt>
          <dd>{receipt.checkedIn}</dd>
          <dt className="font-medium">Collected</dt>
          <dd>{receipt.collected}</dd>
        </dl>
        {receipt.estimate ? (
          <section aria-labelledby="receipt-work">
            <h2 id="receipt-work" className="font-semibold">
              The work you approved
            </h2>
            <div className="mt-2">
              <EstimateTable estimate={receipt.estimate} />
            </div>
          </section>
        ) : null}
        <section aria-labelledby="receipt-payment">
          <h2 id="receipt-payment" className="font-semibold">
            Payment
          </h2>
          <table className="mt-2 w-full text-sm">
            <tbody>
              {receipt.approved ? (
                <tr className="border-b">
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    Approved estimate
                  </th>
                  <td className="py-1 text-right tabular-nums">{receipt.approved}</td>
                </tr>
              ) : null}
              {receipt.adjustment ? (
                <tr className="border-b">
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    Adjusted at the counter
                  </th>
                  <td className="py-1 text-right tabular-nums">{receipt.adjustment}</td>
                </tr>
              ) : null}
              <tr className="border-b">
                <th scope="row" className="py-1 pr-3 text-left font-semibold">
                  Amount paid
                </th>
                <td className="py-1 text-right font-semibold tabular-nums">{receipt.paid}</td>
              </tr>
              <tr>
                <th scope="row" className="py-1 pr-3 text-left font-normal">
                  Paid by
                </th>
                <td className="py-1 text-right">{receipt.paidBy}</td>
              </tr>
            </tbody>
          </table>
        </section>
        <p className="border-t pt-3 text-xs">
          Thank you for your visit. Questions about this repair? Call {receipt.shop.phone}, quoting{" "}
          {receipt.label}.
        </p>
      </article>
    </div>
  );
}
