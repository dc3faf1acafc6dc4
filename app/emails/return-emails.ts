import type { ReturnMethod } from "#app/domain/returns/status.ts";
import { formatUsd } from "#app/lib/money.ts";
import { greetingName } from "#app/lib/person-name.ts";
import { shopContact } from "#app/lib/env.server.ts";
import { SHOP, SHOP_ADDRESS } from "#app/lib/site.ts";
import { renderEmail } from "./layout.ts";

type ReturnMail = {
  label: string;
  orderNumber: number;
  name: string;
  ordersUrl: string;
};

const questions = (label: string) =>
  `Questions? Call ${shopContact().phone} or write to ${shopContact().email}, quoting ${label}.`;

/** How the parcel comes back, in the words the customer follows. */
export function returnInstructions(
  label: string,
  method: ReturnMethod,
  postageCents: number,
): string[] {
  return method === "drop_off"
    ? [
        `Bring the items to the shop at ${SHOP_ADDRESS} (${shopContact().hours}) and give the counter your return number, ${label}.`,
      ]
    : [
        `Pack the items well and write your return number, ${label}, on the parcel or on a note inside.`,
        `Send it to ${SHOP.name}, ${SHOP_ADDRESS}.`,
        postageCents > 0
          ? `We add ${formatUsd(postageCents)} toward your postage to the refund.`
          : "The postage of this parcel is at your cost.",
      ];
}

/** Sent when the customer asks to return items: the return number and what to do next. */
export function returnRequestedMessage(
  mail: ReturnMail & {
    method: ReturnMethod;
    postageCents: number;
    lines: { title: string; quantity: number }[];
  },
) {
  return renderEmail({
    subject: `Your return ${mail.label} for order #${mail.orderNumber}`,
    preview: `Your return number is ${mail.label}.`,
    heading: `Hello ${greetingName(mail.name)},`,
    paragraphs: [
      `We have your return request for order #${mail.orderNumber}. Your return number is ${mail.label}.`,
      ...mail.lines.map((line) => `${line.quantity} × ${line.title}`),
      ...returnInstructions(mail.label, mail.method, mail.postageCents),
      "We refund you to the card you paid with as soon as the items are back with us, and e-mail you when we do.",
    ],
    action: { label: "View your orders", url: mail.ordersUrl },
    note: questions(mail.label),
  });
}

/** Sent when the refund of a return went through. */
export function returnRefundedMessage(
  mail: ReturnMail & {
    refundCents: number;
    postageCents: number;
    /** The order's ledger with this refund in it (`orderLedger`). */
    ledger: { paidCents: number; refundedCents: number; refunds: readonly unknown[] };
  },
) {
  const money = `We refunded ${formatUsd(mail.refundCents)} to the card you paid with${mail.postageCents > 0 ? `, ${formatUsd(mail.postageCents)} of it toward your postage` : ""}; depending on your bank it shows on your statement within 5 to 10 business days.`;
  return renderEmail({
    subject: `Your return ${mail.label} is refunded`,
    preview: money,
    heading: `Hello ${greetingName(mail.name)},`,
    paragraphs: [
      `Your return ${mail.label} for order #${mail.orderNumber} is back with us.`,
      money,
      ...(mail.ledger.refunds.length > 1
        ? [
            `In all, we have refunded ${formatUsd(mail.ledger.refundedCents)} of the ${formatUsd(mail.ledger.paidCents)} you paid for order #${mail.orderNumber}.`,
          ]
        : []),
    ],
    action: { label: "View your orders", url: mail.ordersUrl },
    note: questions(mail.label),
  });
}

/** Sent when staff reject a return, with their reason. */
export function returnRejectedMessage(mail: ReturnMail & { reason: string }) {
  return renderEmail({
    subject: `Your return ${mail.label} could not be accepted`,
    preview: mail.reason,
    heading: `Hello ${greetingName(mail.name)},`,
    paragraphs: [
      `We are sorry: we could not accept your return ${mail.label} for order #${mail.orderNumber}.`,
      `The reason: ${mail.reason}`,
      "If you think this is a mistake, reply to this e-mail or call us and we will look at it again.",
    ],
    action: { label: "View your orders", url: mail.ordersUrl },
    note: questions(mail.label),
  });
}
