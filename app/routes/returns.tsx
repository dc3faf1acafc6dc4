import { Link } from "react-router";
import { useShopContact } from "#app/components/site-footer.tsx";
import { getEnv } from "#app/lib/env.server.ts";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { pageMeta, SHOP, SHOP_ADDRESS, telHref } from "#app/lib/site.ts";
import type { Route } from "./+types/returns";

export const meta: Route.MetaFunction = () =>
  pageMeta("Returns", `Free returns within 30 days at ${SHOP.name}: what can be returned and how.`);

export const headers: Route.HeadersFunction = () => publicPageHeaders();

/** The policy's numbers come from the shop's configuration, so the page says what the shop does. */
export function loader() {
  const env = getEnv();
  return {
    windowDays: env.RETURN_WINDOW_DAYS,
    postageCents: env.RETURN_POSTAGE_CENTS,
    refundsShipping: env.RETURNS_REFUND_SHIPPING === "when-all-returned",
  };
}

/** The shop's returns policy and how a return works, from the request to the refund. */
export default function Returns({ loaderData }: Route.ComponentProps) {
  const contact = useShopContact();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Returns</h1>
      <p className="mt-2 text-xl font-semibold text-primary">Free returns within 30 days</p>
      <p className="mt-4 leading-relaxed">
        Not happy with something you bought from us? Return it within {loaderData.windowDays} days
        of shipping and we refund it to the card you paid with. Returning costs you nothing.
      </p>

      <section aria-labelledby="what" className="mt-10">
        <h2 id="what" className="text-2xl font-bold">
          What can be returned
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-6">
          <li>Films and memorabilia in the condition you received them.</li>
          <li>Sealed discs still in their wrapping, or opened discs that are faulty.</li>
          <li>
            Anything that arrived damaged or is not what you ordered, even after the 30 days:{" "}
            <Link to="/contact" className="font-medium text-primary underline">
              Contact us
            </Link>{" "}
            and we will put it right.
          </li>
        </ul>
      </section>

      <section aria-labelledby="how" className="mt-10">
        <h2 id="how" className="text-2xl font-bold">
          How to return
        </h2>
        <ol className="mt-4 list-decimal space-y-2 pl-6">
          <li>
            Sign in and open{" "}
            <Link to="/orders" className="font-medium text-primary underline">
              Your Orders
            </Link>
            . Under a shipped order, choose <strong>Return items</strong>: pick the items and how
            many, tell us why, and say whether you bring them to the shop or send them by mail.
          </li>
          <li>
            You get a return number (it looks like RMA-1042) at once, by e-mail too, with what to do
            next.
          </li>
          <li>
            Bring the items to the shop at {SHOP_ADDRESS}
            {contact ? ` (${contact.hours})` : ""}, or post them to that address with the return
            number on the parcel.{" "}
            {loaderData.postageCents > 0
              ? `For a parcel sent by mail we add up to ${formatUsd(loaderData.postageCents)} toward your postage to the refund, out of the shipping you paid for the order (so none for an order that shipped free); the return form shows the exact amount before you send anything.`
              : "Returns are free."}
          </li>
          <li>
            Once the items are back with us, we refund them to the card you paid with, with their
            share of the sales tax
            {loaderData.refundsShipping
              ? ", and the shipping you paid once the whole order has come back"
              : ""}
            . We e-mail you when we do, and Your Orders shows where each return stands.
          </li>
        </ol>
        <p className="mt-4 leading-relaxed">
          You can ask for a return until {loaderData.windowDays} days after your order shipped. If
          we cannot accept a return, we tell you why by e-mail.
        </p>
      </section>

      {contact ? (
        <section aria-labelledby="questions" className="mt-10">
          <h2 id="questions" className="text-2xl font-bold">
            Questions
          </h2>
          <p className="mt-4 leading-relaxed">
            Call us on{" "}
            <a href={telHref(contact.phone)} className="font-medium text-primary underline">
              {contact.phone}
            </a>{" "}
            or write to{" "}
            <a href={`mailto:${contact.email}`} className="font-medium text-primary underline">
              {contact.email}
            </a>
            .
          </p>
        </section>
      ) : null}
    </div>
  );
}
