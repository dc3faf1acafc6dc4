import { SectionHeading } from "./account-section.tsx";

/** Cards are entered on the payment provider's page, never kept by the shop (DESIGN 3.8). */
export function PaymentMethods() {
  return (
    <>
      <SectionHeading>Manage Payment Methods</SectionHeading>
      <p className="mt-4 leading-relaxed">
        You pay by card on our payment provider&apos;s secure page when you check out. Your card
        number goes straight to the provider: the shop never sees or stores it, so there is nothing
        to manage here.
      </p>
    </>
  );
}
