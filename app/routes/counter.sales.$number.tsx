import { data } from "react-router";
import { renderSVG } from "uqr";
import { CounterReceipt } from "#app/components/counter/counter-receipt.tsx";
import { PrintBar } from "#app/components/print-bar.tsx";
import { ReturnLinks } from "#app/components/counter/return-links.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import {
  counterConfig,
  counterReturnsConfig,
  receiptShop,
  taxLabel,
} from "#app/domain/counter/counter-config.server.ts";
import { saleForReturn } from "#app/domain/counter/returns.server.ts";
import { getSale, type Sale } from "#app/domain/counter/sales.server.ts";
import { readCounterForm, receiptEmailSchema } from "#app/domain/counter/counter-input.ts";
import { queueMail } from "#app/domain/mail/outbox.server.ts";
import { counterReceiptMessage } from "#app/emails/counter-emails.ts";
import { ReceiptByEmail } from "#app/components/counter/receipt-by-email.tsx";
import { reply } from "#app/lib/reply.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { saleIdOf, TENDER_LABELS } from "#app/domain/counter/status.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/counter.sales.$number";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Receipt ${loaderData.receipt.number}` : "Receipt",
    "A counter sale's receipt, to print.",
  ),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

function receiptPayments(payments: Sale["payments"]) {
  return payments.map((payment) => ({
    label: TENDER_LABELS[payment.method],
    amountCents: payment.amountCents,
    tenderedCents: payment.tenderedCents,
    changeCents: payment.changeCents,
  }));
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const id = saleIdOf(params.number);
  const config = counterConfig();
  const sale = id === undefined ? undefined : await getSale(getDb(), id, config.taxRate);
  if (!sale || sale.status !== "paid") {
    throw data("There is no such sale.", { status: 404 });
  }
  const forReturn = await saleForReturn(getDb(), sale.id, counterReturnsConfig());
  const url = `${publicUrl()}/counter/sales/${sale.number}`;
  return {
    receipt: {
      number: sale.number,
      status: sale.status,
      paidAt: sale.paidAt && formatShopDateTime(sale.paidAt, config.timeZone),
      clerkName: sale.clerkName,
      idChecked: sale.idCheckBirthDate !== null,
      lines: sale.lines.map(({ productType: _type, productId: _id, ...line }) => line),
      totals: sale.totals,
      taxLabel: taxLabel(sale.taxRate),
      payments: receiptPayments(sale.payments),
      qr: renderSVG(url, { border: 1 }),
      shop: receiptShop(),
      returnDays: getEnv().RETURN_WINDOW_DAYS,
    },
    returnable: forReturn !== undefined && forReturn.why === null,
    returns: forReturn?.returns.map((entry) => entry.number) ?? [],
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireStaffAction(request, "counter");
  const form = await readForm(request);
  const read = readCounterForm(receiptEmailSchema, form);
  if (!read.ok) {
    return reply.refused("invalid", read.message, { errors: read.errors, values: form });
  }
  const id = saleIdOf(params.number);
  const config = counterConfig();
  const sale = id === undefined ? undefined : await getSale(getDb(), id, config.taxRate);
  if (!sale || sale.status !== "paid") return reply.refused("not-found", "There is no such sale.");
  await queueMail({
    to: read.values.email,
    ...counterReceiptMessage({
      number: sale.number,
      paidAt: formatShopDateTime(sale.paidAt!, config.timeZone),
      lines: sale.lines,
      ...sale.totals,
      taxLabel: taxLabel(sale.taxRate),
      payments: receiptPayments(sale.payments),
      returnDays: getEnv().RETURN_WINDOW_DAYS,
    }),
  });
  return reply.ok(`Receipt sent to ${read.values.email}.`);
}

export default function Receipt({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-4">
      <PrintBar back={{ to: "/counter", label: "Back to the counter" }} />
      <ReturnLinks
        number={loaderData.receipt.number}
        returnable={loaderData.returnable}
        returns={loaderData.returns}
      />
      <ReceiptByEmail answer={actionData} />
      <CounterReceipt receipt={loaderData.receipt} />
    </div>
  );
}
