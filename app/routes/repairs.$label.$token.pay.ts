import { data, redirect } from "react-router";
import { getDb } from "#app/db/client.server.ts";
import { regularPaymentProviderNow } from "#app/domain/payments/providers.server.ts";
import { startRepairCheckout } from "#app/domain/repair-tickets/payments.server.ts";
import { repairDesk } from "#app/domain/repair-tickets/shop-context.server.ts";
import {
  ticketOfStatusLink,
  ticketStatusPath,
} from "#app/domain/repair-tickets/status-link.server.ts";
import { repairStatusLinkState } from "#app/domain/retention/retention.server.ts";
import type { Route } from "./+types/repairs.$label.$token.pay";

/**
 * The pay link of a repair's balance, from the "ready for pickup" e-mail and the status page:
 * opens (or reopens) a checkout session at the web checkout's provider and sends the customer
 * there. When there is nothing to pay or the provider cannot be reached, back to the status page,
 * which says so.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const desk = repairDesk();
  const number = ticketOfStatusLink(params.label, params.token, desk.secret);
  if (number === undefined) throw data("This repair link is not valid.", { status: 404 });
  const statusPath = ticketStatusPath(number, desk.secret);
  const db = getDb();
  if ((await repairStatusLinkState(db, number, new Date())) !== "open") throw redirect(statusPath);
  try {
    const started = await startRepairCheckout(db, number, {
      provider: regularPaymentProviderNow(),
      statusUrl: new URL(statusPath, desk.links.publicUrl).toString(),
    });
    throw redirect(started.ok ? started.url : `${statusPath}?pay=none`);
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`Could not start the online payment of repair ${number}`, error);
    throw redirect(`${statusPath}?pay=failed`);
  }
}
