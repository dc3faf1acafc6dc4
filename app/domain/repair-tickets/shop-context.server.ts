import { authSecret } from "#app/domain/accounts/auth-secret.server.ts";
import { getEnv, publicUrl } from "#app/lib/env.server.ts";
import { shopCalendarDate } from "#app/lib/shop-time.ts";
import { parseTicketLabel } from "./status.ts";
import type { TicketLinks } from "./tickets.server.ts";

/** What the repair desk's pages hand the domain: links, the shop's day, hours and tax rate. */
export function repairDesk(now = new Date()) {
  const env = getEnv();
  const links: TicketLinks = { publicUrl: publicUrl(env), secret: authSecret(env) };
  return {
    links,
    secret: links.secret,
    today: shopCalendarDate(now, env.SHOP_TIME_ZONE),
    timeZone: env.SHOP_TIME_ZONE,
    hours: env.SHOP_HOURS,
    taxRate: env.REPAIR_SALES_TAX_RATE,
  };
}

/** A ticket number from the URL ("R-1042" or "1042"); undefined for anything else. */
export function ticketNumberParam(value: string | undefined): number | undefined {
  const number = value === undefined ? undefined : parseTicketLabel(value);
  return number !== undefined && number > 0 ? number : undefined;
}
