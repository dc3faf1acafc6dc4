import { data, type MiddlewareFunction } from "react-router";
import { type DatabaseWatch, isDatabaseUnavailable, watchDatabase } from "./unavailable.server.ts";

/** What an endpoint answers then; a page shows its own words for it (root.tsx). */
export const SERVICE_UNAVAILABLE_MESSAGE =
  "The shop cannot answer right now. Please try again in a moment.";

function serviceUnavailable(cause: unknown) {
  console.warn(`Database unavailable, answered 503: ${(cause as Error)?.message ?? cause}`);
  return data(
    { error: SERVICE_UNAVAILABLE_MESSAGE },
    { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store" } },
  );
}

/**
 * The root's middleware, around every page, form post and endpoint, and the one place a
 * database that cannot be reached becomes an answer (DESIGN §3.14): when a statement of the
 * request met it and the request failed, the whole answer is 503 — the root's error page for a
 * page, JSON `{ error }` for an endpoint — whichever route met it, and even when a library
 * caught the database's error and threw one of its own (the auth library's session look-up).
 */
export const answerServiceUnavailable: MiddlewareFunction<Response> = async (_args, next) => {
  const watch: DatabaseWatch = {};
  let response: Response;
  try {
    response = await watchDatabase(watch, next);
  } catch (error) {
    // Endpoints (routes without a page) throw through here.
    if (watch.unavailable !== undefined || isDatabaseUnavailable(error)) {
      throw serviceUnavailable(watch.unavailable ?? error);
    }
    throw error;
  }
  // A route that dealt with the failure itself (a form answering 503 with what was typed in
  // it, a page leaving out a row it can do without) keeps its own answer.
  if (watch.unavailable !== undefined && response.status >= 500 && response.status !== 503) {
    throw serviceUnavailable(watch.unavailable);
  }
  return response;
};
