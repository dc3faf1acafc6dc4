import { data } from "react-router";
import { renderSVG } from "uqr";
import { PrintBar } from "#app/components/print-bar.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { repairDesk, ticketNumberParam } from "#app/domain/repair-tickets/shop-context.server.ts";
import { ticketMoney } from "#app/domain/repair-tickets/payments.server.ts";
import { paidByLabel, promisedDateLabel, ticketLabel } from "#app/domain/repair-tickets/status.ts";
import { ticketStatusPath } from "#app/domain/repair-tickets/status-link.server.ts";
import { deviceName, getTicket } from "#app/domain/repair-tickets/tickets.server.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatShopDate } from "#app/lib/shop-time.ts";
import { pageMeta, SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import type { Route } from "./+types/admin.repairs.$number.claim";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Claim ticket ${loaderData.label}` : "Claim ticket",
    "A repair's claim ticket, to print.",
  ),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

const CLAIM_TERMS =
  "Diagnosis and estimates are free; no paid work starts without your approval. Bring this ticket to collect your device. Devices not collected within 90 days of our notice that they are ready may be disposed of.";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "repairs");
  const notFound = () => data("There is no such repair ticket.", { status: 404 });
  const number = ticketNumberParam(params.number);
  if (number === undefined) throw notFound();
  const found = await getTicket(getDb(), number);
  if (!found) throw notFound();
  const desk = repairDesk();
  const { ticket } = found;
  const statusUrl = new URL(ticketStatusPath(number, desk.secret), desk.links.publicUrl).toString();
  const contact = shopContact();
  // The deposit taken at the desk (at intake, or on the ticket since), as the customer paid it.
  const deposits = (await ticketMoney(getDb(), number)).payments.filter(
    (payment) => payment.kind === "deposit",
  );
  const depositCents = deposits.reduce((sum, payment) => sum + payment.amountCents, 0);
  return {
    label: ticketLabel(number),
    name: ticket.customerName,
    device: deviceName(ticket),
    serial: ticket.deviceSerial,
    accessories: ticket.accessories,
    checkedIn: formatShopDate(ticket.createdAt, desk.timeZone),
    promised: promisedDateLabel(ticket.promisedDate),
    deposit:
      depositCents > 0
        ? `${formatUsd(depositCents)} (${paidByLabel(deposits.map((payment) => payment.method)).toLowerCase()})`
        : null,
    statusUrl,
    qr: renderSVG(statusUrl, { border: 1 }),
    shop: { name: SHOP.name, address: SHOP_ADDRESS, phone: contact.phone, hours: contact.hours },
  };
}

export default function ClaimTicket({ loaderData: claim }: Route.ComponentProps) {
  return (
    <>
      <PrintBar
        back={{ to: `/admin/repairs/${claim.label}`, label: `Back to ticket ${claim.label}` }}
      />
      {/* One A6 page (105 × 148 mm) or the top of a letter page; see the print rules in app.css. */}
      <article className="claim-ticket mx-auto flex max-w-[105mm] flex-col gap-3 rounded-md border bg-white p-4 text-black print:rounded-none print:border-0 print:p-0">
        <header className="border-b border-black pb-2 text-center">
          <p className="text-lg font-bold">{claim.shop.name}</p>
          <p className="text-xs">{claim.shop.address}</p>
          <p className="text-xs">
            {claim.shop.phone} · {claim.shop.hours}
          </p>
        </header>
        <h1 className="text-center">
          <span className="block text-sm font-medium">Claim ticket</span>{" "}
          <span className="block text-4xl font-black tracking-wide">{claim.label}</span>
        </h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="font-medium">Customer</dt>
          <dd>{claim.name}</dd>
          <dt className="font-medium">Device</dt>
          <dd>
            {claim.device}
            {claim.serial ? ` (${claim.serial})` : ""}
          </dd>
          {claim.accessories ? (
            <>
              <dt className="font-medium">Left with it</dt>
              <dd>{claim.accessories}</dd>
            </>
          ) : null}
          <dt className="font-medium">Checked in</dt>
          <dd>{claim.checkedIn}</dd>
          <dt className="font-medium">Promised</dt>
          <dd>{claim.promised}</dd>
          {claim.deposit ? (
            <>
              <dt className="font-medium">Deposit paid</dt>
              <dd>{claim.deposit}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex items-center gap-3">
          <div
            role="img"
            aria-label={`QR code of the status page for ticket ${claim.label}`}
            className="size-28 shrink-0 [&>svg]:size-full"
            dangerouslySetInnerHTML={{ __html: claim.qr }}
          />
          <p className="text-xs">
            Scan to follow your repair, or open the link in the e-mail we sent you.
          </p>
        </div>
        <p className="border-t border-black pt-2 text-[0.7rem] leading-snug">{CLAIM_TERMS}</p>
      </article>
    </>
  );
}
