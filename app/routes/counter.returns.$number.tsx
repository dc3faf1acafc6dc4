import { data } from "react-router";
import { ReturnSlip } from "#app/components/counter/return-slip.tsx";
import { PrintBar } from "#app/components/print-bar.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireStaff } from "#app/domain/accounts/session.server.ts";
import { counterConfig, receiptShop } from "#app/domain/counter/counter-config.server.ts";
import { getCounterReturn } from "#app/domain/counter/returns.server.ts";
import { counterReturnIdOf, REFUND_LABELS } from "#app/domain/counter/status.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/counter.returns.$number";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(
    loaderData ? `Return ${loaderData.slip.number}` : "Return",
    "A counter return's slip, to print.",
  ),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const id = counterReturnIdOf(params.number);
  const found = id === undefined ? undefined : await getCounterReturn(getDb(), id);
  if (!found) throw data("There is no such return.", { status: 404 });
  const { timeZone } = counterConfig();
  return {
    slip: {
      number: found.number,
      saleNumber: found.saleNumber,
      exchangeSaleNumber: found.exchangeSaleNumber,
      at: formatShopDateTime(found.createdAt, timeZone),
      clerkName: found.clerkName,
      reason: found.reason,
      amountCents: found.amountCents,
      lines: found.lines,
      refunds: found.refunds.map((refund) => ({
        label: REFUND_LABELS[refund.method],
        amountCents: refund.amountCents,
      })),
      shop: receiptShop(),
    },
  };
}

export default function CounterReturnSlip({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-4">
      <PrintBar back={{ to: "/counter", label: "Back to the counter" }} />
      <p role="status" className="text-sm font-medium text-success print:hidden">
        Return {loaderData.slip.number} recorded.
      </p>
      <ReturnSlip slip={loaderData.slip} />
    </div>
  );
}
