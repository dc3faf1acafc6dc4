import { Link } from "react-router";
import { useShopContact } from "#app/components/site-footer.tsx";
import { publicPageHeaders } from "#app/lib/http.server.ts";
import { pageMeta, SHOP, SHOP_ADDRESS, telHref } from "#app/lib/site.ts";
import type { Route } from "./+types/returns";

export const meta: Route.MetaFunction = () =>
  pageMeta("Returns", `Free returns within 30 days at ${SHOP.name}: what can be returned and how.`);

export const headers: Route.HeadersFunction = () => publicPageHeaders();

/** The shop's returns policy: plain text the shop can edit here. */
export default function Returns() {
  const contact = useShopContact();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Returns</h1>
      <p className="mt-2 text-xl font-semibold text-primary">Free returns within 30 days</p>
      <p className="mt-4 leading-relaxed">
        Not happy with something you bought from us? Return it within 30 days of delivery and we
        refund it to the card you paid with. Returning costs you nothing.
      </p>

      <section aria-labelledby="what" className="mt-10">
        <h2 id="what" className="text-2xl font-bold">
          What can be returned
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-6">
          <li>Films and memorabilia in the condition you received them.</li>
          <li>Sealed discs still in their wrapping, or opened discs that are faulty.</li>
          <li>
            Anything that arrived damaged or is not what you ordered, even after the 30 days: tell
            us and we will put it right.
          </li>
        </ul>
      </section>

      <section aria-labelledby="how" className="mt-10">
        <h2 id="how" className="text-2xl font-bold">
          How to return
        </h2>
        <ol className="mt-4 list-decimal space-y-2 pl-6">
          <li>
            <Link to="/contact" className="font-medium text-primary underline">
              Contact us
            </Link>{" "}
            with your order number (you find it in{" "}
            <Link to="/orders" className="font-medium text-primary underline">
              My Orders
            </Link>{" "}
            and in your confirmation e-mail).
          </li>
          <li>We reply with a free return label, usually within one working day.</li>
          <li>
            Send the parcel with the label, or bring it to the shop at {SHOP_ADDRESS}
            {contact ? ` (${contact.hours})` : ""}.
          </li>
          <li>Once it is back with us, we refund you within 5 working days.</li>
        </ol>
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
