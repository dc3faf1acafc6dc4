import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/** A form-encoded Stripe parameter as the SDK sends it (`a[b][0][c]=1`), decoded into objects. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export type FakeStripeRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: { [key: string]: FormValue };
};

export type FakeLineItem = { name: string; unitAmount: number; quantity: number };

export type FakeCheckoutSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  currency: string;
  amount_subtotal: number;
  amount_total: number;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string | null;
  cancel_url: string | null;
  created: number;
  expires_at: number;
  url: string | null;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  /** The payment, once the session took one. */
  payment_intent: string | null;
  livemode: false;
};

export type FakeRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: "usd";
  payment_intent: string;
  metadata: Record<string, string>;
  status: "succeeded";
  created: number;
};

export type CheckoutEventType =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "checkout.session.expired";

type StripeError = { status: number; type: string; message: string; code?: string };

const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

/** `line_items[0][price_data][unit_amount]` → ["line_items", "0", "price_data", "unit_amount"]. */
function keyPath(key: string): string[] {
  const [head, ...rest] = key.split("[");
  return [head!, ...rest.map((part) => part.replace(/]$/, ""))];
}

export function decodeForm(body: string): { [key: string]: FormValue } {
  const root: { [key: string]: FormValue } = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = keyPath(key);
    let node: FormValue = root;
    path.forEach((part, i) => {
      const container = node as Record<string, FormValue>;
      if (i === path.length - 1) {
        container[part] = value;
        return;
      }
      container[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = container[part]!;
    });
  }
  return root;
}

const text = (value: FormValue | undefined) => (typeof value === "string" ? value : undefined);
const object = (value: FormValue | undefined) =>
  value && typeof value === "object" && !Array.isArray(value) ? value : undefined;

function invalid(message: string): StripeError {
  return { status: 400, type: "invalid_request_error", message };
}

/** The line items of a create request, checked roughly the way Stripe checks them. */
function lineItems(params: { [key: string]: FormValue }): FakeLineItem[] | StripeError {
  const items = params.line_items;
  if (!Array.isArray(items) || items.length === 0) return invalid("line_items is required.");
  const result: FakeLineItem[] = [];
  for (const item of items) {
    const priceData = object(object(item)?.price_data);
    const name = text(object(priceData?.product_data)?.name);
    const unitAmount = Number(text(priceData?.unit_amount));
    const quantity = Number(text(object(item)?.quantity));
    if (text(priceData?.currency) !== "usd") return invalid("The fake charges usd only.");
    if (!name) return invalid("line_items[].price_data.product_data.name is required.");
    if (!Number.isInteger(unitAmount) || unitAmount < 0) return invalid("Invalid unit_amount.");
    if (!Number.isInteger(quantity) || quantity < 1) return invalid("Invalid quantity.");
    result.push({ name, unitAmount, quantity });
  }
  return result;
}

/**
 * A local HTTP server standing in for Stripe's API in tests: it answers the Checkout Session
 * call the shop makes (form-encoded, as the real SDK sends it), replays the stored answer for a
 * repeated Idempotency-Key as Stripe does, can be told to fail the next call, and records every
 * request. `event` and `signedWebhook` build the webhook deliveries Stripe would send.
 */
export async function startFakeStripe() {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const lineItemsBySession = new Map<string, FakeLineItem[]>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const failures: StripeError[] = [];
  /**
   * Milliseconds the next calls wait before they are answered (a slow Stripe), or a promise to
   * wait for (a Stripe that does not answer until the test lets it).
   */
  const delays: (number | Promise<void>)[] = [];
  const refunds: FakeRefund[] = [];
  let apiBase = "";

  function createSession(params: { [key: string]: FormValue }): [number, unknown] {
    if (text(params.mode) !== "payment") {
      return [400, { error: invalid("Only mode=payment is faked.") }];
    }
    const items = lineItems(params);
    if (!Array.isArray(items)) return [items.status, { error: items }];
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = params.expires_at ? Number(text(params.expires_at)) : now + 24 * 3600;
    if (!(expiresAt >= now + 30 * 60 - 5 && expiresAt <= now + 24 * 3600)) {
      return [400, { error: invalid("expires_at must be 30 minutes to 24 hours from now.") }];
    }
    const amount = items.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const id = randomId("cs_test_");
    const session: FakeCheckoutSession = {
      id,
      object: "checkout.session",
      mode: "payment",
      currency: "usd",
      amount_subtotal: amount,
      amount_total: amount,
      customer_email: text(params.customer_email) ?? null,
      client_reference_id: text(params.client_reference_id) ?? null,
      metadata: Object.fromEntries(
        Object.entries(object(params.metadata) ?? {}).map(([key, value]) => [key, String(value)]),
      ),
      success_url: text(params.success_url) ?? null,
      cancel_url: text(params.cancel_url) ?? null,
      created: now,
      expires_at: expiresAt,
      url: `${apiBase}/c/pay/${id}`,
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      livemode: false,
    };
    sessions.set(id, session);
    lineItemsBySession.set(id, items);
    return [200, session];
  }

  function expireSession(id: string): [number, unknown] {
    const found = sessions.get(id);
    if (!found) return [404, { error: invalid(`No such checkout.session: '${id}'`) }];
    if (found.status !== "open") {
      return [
        400,
        { error: invalid("Only Checkout Sessions with a status of open can be expired.") },
      ];
    }
    found.status = "expired";
    return [200, found];
  }

  /** Stripe's rules for a refund: a payment it knows, not refunded past what was paid. */
  function createRefund(params: { [key: string]: FormValue }): [number, unknown] {
    const intent = text(params.payment_intent);
    const paidSession = [...sessions.values()].find(
      (candidate) => intent && candidate.payment_intent === intent,
    );
    if (!intent || !paidSession) {
      return [
        404,
        { error: { ...invalid(`No such payment_intent: '${intent}'`), code: "resource_missing" } },
      ];
    }
    const refunded = refunds
      .filter((refund) => refund.payment_intent === intent)
      .reduce((sum, refund) => sum + refund.amount, 0);
    const amount = params.amount
      ? Number(text(params.amount))
      : paidSession.amount_total - refunded;
    if (!Number.isInteger(amount) || amount < 1 || refunded + amount > paidSession.amount_total) {
      return [
        400,
        {
          error: {
            ...invalid(
              `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge.`,
            ),
            code: "amount_too_large",
          },
        },
      ];
    }
    const refund: FakeRefund = {
      id: randomId("re_"),
      object: "refund",
      amount,
      currency: "usd",
      payment_intent: intent,
      metadata: Object.fromEntries(
        Object.entries(object(params.metadata) ?? {}).map(([key, value]) => [key, String(value)]),
      ),
      status: "succeeded",
      created: Math.floor(Date.now() / 1000),
    };
    refunds.push(refund);
    return [200, refund];
  }

  function answer(request: FakeStripeRequest, body: string): [number, unknown] {
    const failure = failures.shift();
    // Refused before it ran (as Stripe does when overloaded): nothing stored for the key.
    if (failure) return [failure.status, { error: failure }];
    if (request.idempotencyKey) {
      const earlier = idempotent.get(request.idempotencyKey);
      if (earlier && earlier.body !== body) {
        return [
          400,
          {
            error: {
              type: "idempotency_error",
              message:
                "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            },
          },
        ];
      }
      if (earlier) return [earlier.status, earlier.answer];
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(request.path);
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    const stored = retrieve ? sessions.get(decodeURIComponent(retrieve[1]!)) : undefined;
    const result: [number, unknown] =
      request.method === "POST" && request.path === "/v1/checkout/sessions"
        ? createSession(request.params)
        : request.method === "POST" && expire
          ? expireSession(decodeURIComponent(expire[1]!))
          : request.method === "POST" && request.path === "/v1/refunds"
            ? createRefund(request.params)
            : request.method === "GET" && retrieve
              ? stored
                ? [200, stored]
                : [404, { error: invalid(`No such checkout.session: '${retrieve[1]}'`) }]
              : [
                  404,
                  {
                    error: invalid(
                      `Unrecognized request URL (${request.method}: ${request.path}).`,
                    ),
                  },
                ];
    if (request.idempotencyKey) {
      idempotent.set(request.idempotencyKey, { body, status: result[0], answer: result[1] });
    }
    return result;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const request: FakeStripeRequest = {
        method: req.method ?? "GET",
        path: new URL(req.url ?? "/", "http://fake").pathname,
        idempotencyKey: req.headers["idempotency-key"]?.toString() ?? null,
        params: decodeForm(body),
      };
      requests.push(request);
      const delay = delays.shift() ?? 0;
      // Answered late but worked out at once, as a slow Stripe does the work all the same.
      const [status, payload] = answer(request, body);
      if (typeof delay !== "number") {
        void delay.then(() => reply(status, payload, request.idempotencyKey));
        return;
      }
      if (delay > 0) {
        setTimeout(() => reply(status, payload, request.idempotencyKey), delay);
        return;
      }
      reply(status, payload, request.idempotencyKey);
    });
    const reply = (status: number, payload: unknown, idempotencyKey: string | null) => {
      if (res.destroyed) return;
      res.writeHead(status, {
        "content-type": "application/json",
        "request-id": randomId("req_"),
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      });
      res.end(JSON.stringify(payload));
    };
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function session(id: string): FakeCheckoutSession {
    const found = sessions.get(id);
    if (!found) throw new Error(`The fake Stripe has no checkout session ${id}.`);
    return found;
  }

  return {
    /** Pass to `createStripeProvider({ apiBase })`. */
    apiBase,
    requests,
    sessions,
    /** Every refund made, in order. */
    refunds,
    /** What a session charges, line by line, as the request gave them. */
    lineItems: (sessionId: string) => lineItemsBySession.get(sessionId) ?? [],
    /** The next API call answers this error (default: 500 `api_error`) instead. */
    failNext(error: Partial<StripeError> = {}) {
      failures.push({
        status: error.status ?? 500,
        type: error.type ?? "api_error",
        message: error.message ?? "Something went wrong on Stripe's end (fake).",
        ...(error.code ? { code: error.code } : {}),
      });
    },
    /** The next API call is answered after `ms` (its work is done at once all the same). */
    delayNext(ms: number) {
      delays.push(ms);
    },
    /**
     * The next API call is worked out at once but answered only once the returned function is
     * called: a Stripe that does not answer for as long as the test needs.
     */
    holdNext(): () => void {
      let release = () => {};
      delays.push(new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
    /**
     * The event Stripe sends when a session reaches this state; the stored session changes with
     * it. `changes` overrides fields of the session in the event (e.g. `payment_status`).
     */
    event(type: CheckoutEventType, sessionId: string, changes: Partial<FakeCheckoutSession> = {}) {
      const current = session(sessionId);
      const state: Partial<FakeCheckoutSession> =
        type === "checkout.session.expired"
          ? { status: "expired", payment_status: "unpaid", url: null }
          : type === "checkout.session.async_payment_failed"
            ? { status: "complete", payment_status: "unpaid", url: null }
            : {
                status: "complete",
                payment_status: "paid",
                url: null,
                payment_intent: current.payment_intent ?? randomId("pi_test_"),
              };
      const next = { ...current, ...state, ...changes };
      sessions.set(sessionId, next);
      return {
        id: randomId("evt_test_"),
        object: "event" as const,
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: next },
      };
    },
    /** A delivery of `event` as Stripe makes it: the JSON body and its Stripe-Signature header. */
    signedWebhook(event: object, secret: string, options: { timestamp?: number } = {}) {
      const rawBody = JSON.stringify(event, null, 2);
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: rawBody,
        secret,
        timestamp: options.timestamp,
      });
      return { rawBody, signature };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps its connections alive; without this, close waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
