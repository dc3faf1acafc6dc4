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

/** A PaymentIntent made directly (the counter's card reader, Stripe Terminal). */
export type FakePaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: "requires_payment_method" | "succeeded" | "canceled";
  payment_method_types: string[];
  capture_method: string;
  description: string | null;
  metadata: Record<string, string>;
  last_payment_error: { code: string; message: string } | null;
  created: number;
  livemode: false;
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

type Answer = [status: number, payload: unknown];

/** What the fake remembers between calls: one per `startFakeStripe`. */
type FakeState = {
  apiBase: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, FakeCheckoutSession>;
  lineItemsBySession: Map<string, FakeLineItem[]>;
  idempotent: Map<string, { body: string; status: number; answer: unknown }>;
  failures: StripeError[];
  /** Milliseconds the next calls wait before they are answered (a slow Stripe). */
  delays: number[];
  refunds: FakeRefund[];
  /** Calls held until the test lets them be answered (see `holdNext`). */
  holds: { arrived: () => void; released: Promise<void> }[];
  /** PaymentIntents made directly, and what each Terminal reader is processing. */
  intents: Map<string, FakePaymentIntent>;
  readers: Map<string, string | null>;
};

const notFound = (message: string, code?: string): Answer => [
  404,
  { error: { ...invalid(message), ...(code ? { code } : {}) } },
];

const stringMetadata = (value: FormValue | undefined) =>
  Object.fromEntries(
    Object.entries(object(value) ?? {}).map(([key, entry]) => [key, String(entry)]),
  );

function createSession(state: FakeState, params: { [key: string]: FormValue }): Answer {
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
    metadata: stringMetadata(params.metadata),
    success_url: text(params.success_url) ?? null,
    cancel_url: text(params.cancel_url) ?? null,
    created: now,
    expires_at: expiresAt,
    url: `${state.apiBase}/c/pay/${id}`,
    status: "open",
    payment_status: "unpaid",
    payment_intent: null,
    livemode: false,
  };
  state.sessions.set(id, session);
  state.lineItemsBySession.set(id, items);
  return [200, session];
}

function retrieveSession(state: FakeState, id: string): Answer {
  const found = state.sessions.get(id);
  return found ? [200, found] : notFound(`No such checkout.session: '${id}'`);
}

function expireSession(state: FakeState, id: string): Answer {
  const found = state.sessions.get(id);
  if (!found) return notFound(`No such checkout.session: '${id}'`);
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
function createRefund(state: FakeState, params: { [key: string]: FormValue }): Answer {
  const intent = text(params.payment_intent);
  const paidSession = [...state.sessions.values()].find(
    (candidate) => intent && candidate.payment_intent === intent,
  );
  if (!intent || !paidSession) {
    return notFound(`No such payment_intent: '${intent}'`, "resource_missing");
  }
  const refunded = state.refunds
    .filter((refund) => refund.payment_intent === intent)
    .reduce((sum, refund) => sum + refund.amount, 0);
  const amount = params.amount ? Number(text(params.amount)) : paidSession.amount_total - refunded;
  if (!Number.isInteger(amount) || amount < 1 || refunded + amount > paidSession.amount_total) {
    const message = `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge.`;
    return [400, { error: { ...invalid(message), code: "amount_too_large" } }];
  }
  const refund: FakeRefund = {
    id: randomId("re_"),
    object: "refund",
    amount,
    currency: "usd",
    payment_intent: intent,
    metadata: stringMetadata(params.metadata),
    status: "succeeded",
    created: Math.floor(Date.now() / 1000),
  };
  state.refunds.push(refund);
  return [200, refund];
}

/** A `card_present` PaymentIntent for the Terminal reader, as the server-driven flow makes it. */
function createIntent(state: FakeState, params: { [key: string]: FormValue }): Answer {
  const amount = Number(text(params.amount));
  if (!Number.isInteger(amount) || amount < 50) {
    return [
      400,
      { error: { ...invalid("Amount must be at least $0.50 usd."), code: "amount_too_small" } },
    ];
  }
  const types = params.allowed_payment_method_types ?? params.payment_method_types;
  const methodTypes = Array.isArray(types) ? types.map(String) : ["card"];
  const intent: FakePaymentIntent = {
    id: randomId("pi_"),
    object: "payment_intent",
    amount,
    amount_received: 0,
    currency: text(params.currency) ?? "usd",
    status: "requires_payment_method",
    payment_method_types: methodTypes,
    capture_method: text(params.capture_method) ?? "automatic",
    description: text(params.description) ?? null,
    metadata: stringMetadata(params.metadata),
    last_payment_error: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  };
  state.intents.set(intent.id, intent);
  return [200, intent];
}

const reader = (id: string, intent: string | null) => ({
  id,
  object: "terminal.reader",
  device_type: "simulated_wisepos_e",
  status: "online",
  action: intent
    ? {
        type: "process_payment_intent",
        status: "in_progress",
        process_payment_intent: { payment_intent: intent },
        failure_code: null,
        failure_message: null,
      }
    : null,
});

function processOnReader(state: FakeState, readerId: string, params: { [key: string]: FormValue }) {
  const intent = state.intents.get(text(params.payment_intent) ?? "");
  if (!intent) return notFound(`No such payment_intent: '${text(params.payment_intent)}'`);
  if (!intent.payment_method_types.includes("card_present")) {
    return [400, { error: invalid("The PaymentIntent does not allow card_present.") }] as Answer;
  }
  if (state.readers.get(readerId)) {
    const busy = "Reader is currently busy processing another request.";
    return [400, { error: { ...invalid(busy), code: "terminal_reader_busy" } }] as Answer;
  }
  state.readers.set(readerId, intent.id);
  return [200, reader(readerId, intent.id)] as Answer;
}

function cancelReaderAction(state: FakeState, readerId: string): Answer {
  if (!state.readers.get(readerId)) {
    return [400, { error: invalid("Reader has no action to cancel.") }];
  }
  state.readers.set(readerId, null);
  return [200, reader(readerId, null)];
}

function cancelIntent(state: FakeState, id: string): Answer {
  const intent = state.intents.get(id);
  if (!intent) return notFound(`No such payment_intent: '${id}'`);
  if (intent.status === "succeeded") {
    const message = "You cannot cancel this PaymentIntent because it has a status of succeeded.";
    return [400, { error: { ...invalid(message), code: "payment_intent_unexpected_state" } }];
  }
  intent.status = "canceled";
  return [200, intent];
}

/** The payments the paid sessions took, newest first, as Stripe lists PaymentIntents. */
function paymentIntents(state: FakeState) {
  const direct = [...state.intents.values()].filter((intent) => intent.status === "succeeded");
  return [...state.sessions.values()]
    .filter((paid) => paid.payment_intent && paid.payment_status === "paid")
    .map((paid) => ({
      id: paid.payment_intent!,
      object: "payment_intent" as const,
      amount: paid.amount_total,
      amount_received: paid.amount_total,
      currency: "usd",
      status: "succeeded",
      metadata: paid.metadata,
      created: paid.created,
      livemode: false,
    }))
    .concat(direct)
    .reverse();
}

/** One page holding everything: the SDK's auto-pagination stops when `has_more` is false. */
const list = (url: string, data: unknown[]): Answer => [
  200,
  { object: "list", url, has_more: false, data },
];

/** The API the shop calls: method, path pattern, and what answers it. */
const routes: {
  method: string;
  path: RegExp;
  run: (state: FakeState, request: FakeStripeRequest, id: string) => Answer;
}[] = [
  {
    method: "POST",
    path: /^\/v1\/checkout\/sessions$/,
    run: (state, request) => createSession(state, request.params),
  },
  {
    method: "POST",
    path: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
    run: (state, _request, id) => expireSession(state, id),
  },
  {
    method: "POST",
    path: /^\/v1\/refunds$/,
    run: (state, request) => createRefund(state, request.params),
  },
  {
    method: "GET",
    path: /^\/v1\/checkout\/sessions\/([^/]+)$/,
    run: (state, _request, id) => retrieveSession(state, id),
  },
  {
    method: "POST",
    path: /^\/v1\/payment_intents$/,
    run: (state, request) => createIntent(state, request.params),
  },
  {
    method: "GET",
    path: /^\/v1\/payment_intents\/([^/]+)$/,
    run: (state, _request, id) => {
      const intent = state.intents.get(id);
      return intent ? [200, intent] : notFound(`No such payment_intent: '${id}'`);
    },
  },
  {
    method: "POST",
    path: /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
    run: (state, _request, id) => cancelIntent(state, id),
  },
  {
    method: "POST",
    path: /^\/v1\/terminal\/readers\/([^/]+)\/process_payment_intent$/,
    run: (state, request, id) => processOnReader(state, id, request.params),
  },
  {
    method: "POST",
    path: /^\/v1\/terminal\/readers\/([^/]+)\/cancel_action$/,
    run: (state, _request, id) => cancelReaderAction(state, id),
  },
  {
    method: "GET",
    path: /^\/v1\/payment_intents$/,
    run: (state, request) => list(request.path, paymentIntents(state)),
  },
  {
    method: "GET",
    path: /^\/v1\/refunds$/,
    run: (state, request) => list(request.path, [...state.refunds].reverse()),
  },
];

function route(state: FakeState, request: FakeStripeRequest): Answer {
  for (const candidate of routes) {
    const match = request.method === candidate.method && candidate.path.exec(request.path);
    if (match) return candidate.run(state, request, decodeURIComponent(match[1] ?? ""));
  }
  return [
    404,
    { error: invalid(`Unrecognized request URL (${request.method}: ${request.path}).`) },
  ];
}

/** A queued failure first; then a repeated Idempotency-Key's stored answer, as Stripe gives it. */
function answer(state: FakeState, request: FakeStripeRequest, body: string): Answer {
  const failure = state.failures.shift();
  // Refused before it ran (as Stripe does when overloaded): nothing stored for the key.
  if (failure) return [failure.status, { error: failure }];
  const key = request.idempotencyKey;
  const earlier = key ? state.idempotent.get(key) : undefined;
  if (earlier && earlier.body !== body) {
    const message =
      "Keys for idempotent requests can only be used with the same parameters they were first used with.";
    return [400, { error: { type: "idempotency_error", message } }];
  }
  if (earlier) return [earlier.status, earlier.answer];
  const result = route(state, request);
  if (key) state.idempotent.set(key, { body, status: result[0], answer: result[1] });
  return result;
}

function send(res: http.ServerResponse, [status, payload]: Answer, idempotencyKey: string | null) {
  if (res.destroyed) return;
  res.writeHead(status, {
    "content-type": "application/json",
    "request-id": randomId("req_"),
    ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
  });
  res.end(JSON.stringify(payload));
}

/** Records the call, works it out at once, and answers it now, after a delay, or when released. */
function handler(state: FakeState): http.RequestListener {
  return (req, res) => {
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
      state.requests.push(request);
      const delay = state.delays.shift() ?? 0;
      const hold = state.holds.shift();
      // Answered late but worked out at once, as a slow Stripe does the work all the same.
      const result = answer(state, request, body);
      const reply = () => send(res, result, request.idempotencyKey);
      if (hold) {
        hold.arrived();
        void hold.released.then(reply);
      } else if (delay > 0) {
        setTimeout(reply, delay);
      } else {
        reply();
      }
    });
  };
}

/** What the session becomes when Stripe sends `type` about it. */
function eventState(type: CheckoutEventType, current: FakeCheckoutSession) {
  if (type === "checkout.session.expired") {
    return { status: "expired", payment_status: "unpaid", url: null } as const;
  }
  if (type === "checkout.session.async_payment_failed") {
    return { status: "complete", payment_status: "unpaid", url: null } as const;
  }
  return {
    status: "complete",
    payment_status: "paid",
    url: null,
    payment_intent: current.payment_intent ?? randomId("pi_test_"),
  } as const;
}

/**
 * The event Stripe sends when a session reaches this state; the stored session changes with it.
 * `changes` overrides fields of the session in the event (e.g. `payment_status`).
 */
function checkoutEvent(
  state: FakeState,
  type: CheckoutEventType,
  sessionId: string,
  changes: Partial<FakeCheckoutSession>,
) {
  const current = state.sessions.get(sessionId);
  if (!current) throw new Error(`The fake Stripe has no checkout session ${sessionId}.`);
  const next = { ...current, ...eventState(type, current), ...changes };
  state.sessions.set(sessionId, next);
  return eventAbout(type, next);
}

/** An event as Stripe sends it, about `object` as it stands now. */
function eventAbout<Type extends string, Object>(type: Type, object: Object) {
  return {
    id: randomId("evt_test_"),
    object: "event" as const,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/**
 * A card presented to a Terminal reader (Stripe's `present_payment_method` test helper): the
 * PaymentIntent it is processing succeeds or is declined, and the event Stripe sends about it
 * is returned for the test to deliver.
 */
function presentCard(state: FakeState, readerId: string, outcome: "pays" | "declines") {
  const intent = state.intents.get(state.readers.get(readerId) ?? "");
  if (!intent) throw new Error(`The fake reader ${readerId} is not processing a payment.`);
  state.readers.set(readerId, null);
  if (outcome === "pays") {
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
  } else {
    intent.last_payment_error = { code: "card_declined", message: "Your card was declined." };
  }
  return eventAbout(
    outcome === "pays" ? "payment_intent.succeeded" : "payment_intent.payment_failed",
    { ...intent },
  );
}

/** A delivery of `event` as Stripe makes it: the JSON body and its Stripe-Signature header. */
function signedWebhook(event: object, secret: string, options: { timestamp?: number } = {}) {
  const rawBody = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: rawBody,
    secret,
    timestamp: options.timestamp,
  });
  return { rawBody, signature };
}

/** The test's handles on how the next calls are answered. */
function controls(state: FakeState) {
  return {
    /** The next API call answers this error (default: 500 `api_error`) instead. */
    failNext(error: Partial<StripeError> = {}) {
      state.failures.push({
        status: error.status ?? 500,
        type: error.type ?? "api_error",
        message: error.message ?? "Something went wrong on Stripe's end (fake).",
        ...(error.code ? { code: error.code } : {}),
      });
    },
    /** The next API call is answered after `ms` (its work is done at once all the same). */
    delayNext(ms: number) {
      state.delays.push(ms);
    },
    /**
     * The next API call is worked out at once and answered only when `release` is called:
     * `arrived` settles when it has reached the fake, so a test can act while it is in flight.
     */
    holdNext() {
      let release!: () => void;
      let arrived!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      state.holds.push({ arrived, released });
      return { arrived: reached, release };
    },
  };
}

/**
 * A local HTTP server standing in for Stripe's API in tests: it answers the Checkout Session
 * call the shop makes (form-encoded, as the real SDK sends it), replays the stored answer for a
 * repeated Idempotency-Key as Stripe does, can be told to fail the next call, and records every
 * request. `event` and `signedWebhook` build the webhook deliveries Stripe would send.
 */
export async function startFakeStripe() {
  const state: FakeState = {
    apiBase: "",
    requests: [],
    sessions: new Map(),
    lineItemsBySession: new Map(),
    idempotent: new Map(),
    failures: [],
    delays: [],
    refunds: [],
    holds: [],
    intents: new Map(),
    readers: new Map(),
  };
  const server = http.createServer(handler(state));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  state.apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** Pass to `createStripeProvider({ apiBase })`. */
    apiBase: state.apiBase,
    requests: state.requests,
    sessions: state.sessions,
    /** Every refund made, in order. */
    refunds: state.refunds,
    /** What a session charges, line by line, as the request gave them. */
    lineItems: (sessionId: string) => state.lineItemsBySession.get(sessionId) ?? [],
    ...controls(state),
    event: (
      type: CheckoutEventType,
      sessionId: string,
      changes: Partial<FakeCheckoutSession> = {},
    ) => checkoutEvent(state, type, sessionId, changes),
    /** PaymentIntents made directly (the counter's card reader). */
    intents: state.intents,
    presentCard: (readerId: string, outcome: "pays" | "declines") =>
      presentCard(state, readerId, outcome),
    signedWebhook,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps its connections alive; without this, close waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
