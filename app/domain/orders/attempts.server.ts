import { queryByHand, type Database } from "#app/db/client.server.ts";

/**
 * Payment attempts allowed per account and per client address (CHECKOUT_ATTEMPTS_PER_ACCOUNT,
 * CHECKOUT_ATTEMPTS_PER_CLIENT) in ATTEMPT_WINDOW_SECONDS: each attempt places an order that
 * holds stock for half an hour, so nobody can keep titles off the shelf by trying again and again.
 */
export type AttemptLimits = { clientIp: string; perAccount: number; perClient: number };

export const ATTEMPT_WINDOW_SECONDS = 10 * 60;

export const TOO_MANY_CHECKOUTS =
  "Too many payment attempts in a short time. Please wait a few minutes and try again.";

/**
 * Counts one attempt under each of `$2`'s keys at `$1` (milliseconds) in the shared
 * `rate_limits` table, as `consumeLimit` counts (a fixed window of `$3` milliseconds from the
 * first attempt; the auth library's keys and ours, "shop:…", share it), and says in
 * `verdict.retry_after_seconds` how long to wait when any key is past its limit (`$4`, in the
 * same order), or null. The keys are taken in their order (the account's, then the client's),
 * so two checkouts never wait for each other's keys crosswise.
 *
 * The count's commit does not wait for the disk (`synchronous_commit` off for its transaction
 * only): a row many checkouts count on (one client address) is then held for the statement,
 * not for a flush of the log as well, and a checkout is not one more flush long. A crash of the
 * database can lose only the last fraction of a second of counts, and only of attempts that
 * placed nothing: placing an order commits to disk, which writes every count before it.
 */
const COUNT_ATTEMPTS = `
  counted as (
    insert into rate_limits (id, key, count, last_request)
    select gen_random_uuid()::text, attempt.key, 1, $1::bigint
      from unnest($2::text[]) with ordinality as attempt(key, n)
     order by attempt.n
    on conflict (key) do update set
      count = case when rate_limits.last_request <= excluded.last_request - $3::bigint then 1
                   else rate_limits.count + 1 end,
      last_request = case when rate_limits.last_request <= excluded.last_request - $3::bigint
                          then excluded.last_request else rate_limits.last_request end
    returning key, count, last_request
  ), verdict as (
    select (max(greatest(1, ceil((counted.last_request + $3::bigint - $1::bigint) / 1000.0)))
              filter (where counted.count > limits.max))::integer as retry_after_seconds,
           set_config('synchronous_commit', 'off', true) as lazy_commit
      from counted join unnest($2::text[], $4::integer[]) as limits(key, max) using (key)
  )`;

/** The parameters `$1`–`$4` of COUNT_ATTEMPTS for one attempt of this account. */
export function attemptValues(customerId: string, limits: AttemptLimits, now = Date.now()) {
  return [
    now,
    [`shop:checkout:account:${customerId}`, `shop:checkout:client:${limits.clientIp}`],
    ATTEMPT_WINDOW_SECONDS * 1000,
    [limits.perAccount, limits.perClient],
  ];
}

/**
 * Counts one payment attempt for the account and for the client address; null when both are
 * within their limits, else how long to wait.
 */
export async function checkoutAttemptLimited(
  db: Database,
  customerId: string,
  limits: AttemptLimits,
): Promise<{ retryAfterSeconds: number } | null> {
  const { rows } = await queryByHand<{ retry_after_seconds: number | null }>(db, {
    name: "count-checkout-attempt",
    text: `with ${COUNT_ATTEMPTS} select retry_after_seconds, lazy_commit from verdict`,
    values: attemptValues(customerId, limits),
  });
  const wait = rows[0]?.retry_after_seconds;
  return wait == null ? null : { retryAfterSeconds: wait };
}

/**
 * A query's rows (`productsSql`, parameters from `$5`) in the statement that counts the attempt:
 * placing an order reads the catalogue first anyway, so the count costs no round trip of its
 * own. One row at least (the verdict), with nulls when the query found nothing.
 */
export const countAttemptAnd = (productsSql: string) => `
  with ${COUNT_ATTEMPTS}, products as (${productsSql})
  select verdict.retry_after_seconds, verdict.lazy_commit, products.*
    from verdict left join products on true`;
