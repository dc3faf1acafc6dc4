import type { Database } from "#app/db/client.server.ts";
import type { Staff } from "#app/domain/accounts/staff.ts";
import type { FieldErrors } from "#app/domain/accounts/forms.ts";
import type { RefusalReason, Result } from "#app/lib/reply.server.ts";
import { addSchema, lineSchema, paySchema, readCounterForm, scanSchema } from "./counter-input.ts";
import { counterCardReader } from "#app/domain/payments/providers.server.ts";
import { cancelCard, chargeCard } from "./card-payments.server.ts";
import { findByCode, productNow, searchProducts, type CounterProduct } from "./lookup.server.ts";
import {
  addToSale,
  AT_THE_TILL,
  changeLine,
  NO_SALE,
  openTillAndSale,
  paySale,
  removeLine,
  TILL_CLOSED,
  voidSale,
  type CounterConfig,
} from "./sales.server.ts";
import { isPaidSale } from "./returns.server.ts";
import { pickupCodeOf } from "./pickup-collection.server.ts";
import { saleIdOfScan, saleNumber } from "./status.ts";

// What each press at the counter does (decision 023): the route reads the form and answers; the
// rules are here, so one place says what a scan, a line's change or a payment means.

export type CounterActionAnswer =
  | { ok: true; message: string; results?: CounterProduct[] }
  | { ok: true; paidSaleId: number }
  /** A receipt's number or QR code scanned or typed: its sale is opened, for a return. */
  | { ok: true; openSale: string }
  /** A web order's pickup code (its QR in the customer's e-mail): the order is found at Pickups. */
  | { ok: true; openPickup: string }
  /** The card's part went to the reader: the page waits for its outcome. */
  | { ok: true; cardSaleId: number }
  | { ok: false; reason: RefusalReason; message: string; errors?: FieldErrors };

function answer(result: Result<object>): CounterActionAnswer {
  if (result.ok) return { ok: true, message: result.message };
  return {
    ok: false,
    reason: result.reason,
    message: result.message,
    ...(result.field ? { errors: { [result.field]: result.message } } : {}),
  };
}

/** A form that did not pass its schema: each field's message beside it. */
function invalid(parsed: { message: string; errors: FieldErrors }): CounterActionAnswer {
  return { ok: false, reason: "invalid", message: parsed.message, errors: parsed.errors };
}

const NO_READER: CounterActionAnswer = {
  ok: false,
  reason: "conflict",
  message: "No card reader is set up at this counter: take the payment in cash.",
};

const NO_SALE_ANSWER: CounterActionAnswer = { ok: false, reason: "conflict", message: NO_SALE };

/**
 * A scanned or typed code: the one product it names is added; a receipt opens its sale and a
 * pickup code its order; words find a few products to choose.
 */
async function scan(db: Database, code: string, staff: Staff) {
  const saleId = saleIdOfScan(code);
  if (saleId !== undefined && (await isPaidSale(db, saleId))) {
    return { ok: true as const, openSale: saleNumber(saleId) };
  }
  const product = await findByCode(db, code);
  if (product) return answer(await addToSale(db, AT_THE_TILL, product, 1, staff));
  // After the products: a product's code always sells it, even one a pickup code could read as.
  const pickupCode = await pickupCodeOf(db, code);
  if (pickupCode) return { ok: true as const, openPickup: pickupCode };
  const results = await searchProducts(db, code);
  if (results.length === 0) {
    const message = `Nothing found for “${code}”.`;
    return { ok: false as const, reason: "not-found" as const, message, errors: { code: message } };
  }
  return { ok: true as const, message: `Found ${results.length}: choose one to add.`, results };
}

/**
 * Runs one press of the counter's page (`intent`) against the open till and its open sale. A
 * scan and a cash payment find the till and the sale in their own statement (one round trip for
 * the press); the other presses read them first.
 */
export async function counterAction(
  db: Database,
  form: Record<string, string>,
  staff: Staff,
  config: CounterConfig,
): Promise<CounterActionAnswer> {
  switch (form.intent) {
    case "scan": {
      const parsed = readCounterForm(scanSchema, form);
      if (!parsed.ok) return invalid(parsed);
      return scan(db, parsed.values.code, staff);
    }
    case "add": {
      const parsed = readCounterForm(addSchema, form);
      if (!parsed.ok) return invalid(parsed);
      const product = await productNow(db, parsed.values.type, parsed.values.id);
      if (!product)
        return { ok: false, reason: "not-found", message: "This product is no longer for sale." };
      return answer(await addToSale(db, AT_THE_TILL, product, 1, staff));
    }
    case "pay": {
      const parsed = readCounterForm(paySchema, form);
      if (!parsed.ok) return invalid(parsed);
      const paid = await paySale(
        db,
        {
          saleId: AT_THE_TILL,
          cashTenderedCents: parsed.values.cashTendered,
          idCheckBirthDate: parsed.values.idCheck,
        },
        config,
        staff,
      );
      return paid.ok ? { ok: true, paidSaleId: paid.saleId } : answer(paid);
    }
    default: {
      const till = await openTillAndSale(db);
      if (!till) return { ok: false, reason: "conflict", message: TILL_CLOSED };
      return onOpenSale(db, till.saleId, form, staff, config);
    }
  }
}

async function onOpenSale(
  db: Database,
  /** The presses on a sale need only its id: the payment reads the sale itself, under its lock. */
  saleId: number | undefined,
  form: Record<string, string>,
  staff: Staff,
  config: CounterConfig,
): Promise<CounterActionAnswer> {
  if (saleId === undefined) return NO_SALE_ANSWER;
  switch (form.intent) {
    case "line": {
      const parsed = readCounterForm(lineSchema, form);
      if (!parsed.ok) return invalid(parsed);
      const { line, quantity, discount, reason } = parsed.values;
      return answer(
        await changeLine(db, saleId, line, {
          quantity,
          discountCents: discount,
          discountReason: reason || null,
        }),
      );
    }
    case "remove": {
      const line = Number(form.line);
      if (!Number.isSafeInteger(line)) return NO_SALE_ANSWER;
      return answer(await removeLine(db, saleId, line));
    }
    case "void":
      return answer(await voidSale(db, saleId));
    case "card": {
      const parsed = readCounterForm(paySchema, form);
      if (!parsed.ok) return invalid(parsed);
      const reader = counterCardReader();
      if (!reader) return NO_READER;
      const charged = await chargeCard(
        db,
        reader,
        {
          saleId,
          cardCents: parsed.values.card,
          cashTenderedCents: parsed.values.cashTendered,
          idCheckBirthDate: parsed.values.idCheck,
        },
        config,
        staff,
      );
      return charged.ok ? { ok: true, cardSaleId: charged.saleId } : answer(charged);
    }
    case "cancel-card": {
      const reader = counterCardReader();
      if (!reader) return NO_READER;
      return answer(await cancelCard(db, reader, saleId));
    }
    default:
      return { ok: false, reason: "invalid", message: "Unknown action." };
  }
}
