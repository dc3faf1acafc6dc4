import { sql } from "drizzle-orm";
import type { Transaction } from "./client.server.ts";

/**
 * Names who acts (and a note) for the status changes this transaction writes: the history
 * triggers on orders, returns and repair tickets read them (migrations 0021 and later).
 * `set_config(..., true)` lasts until the transaction ends. Null: the customer or the shop
 * itself, who are not named.
 */
export async function withActor(
  tx: Transaction,
  staff: { id: string; name: string } | null,
  note = "",
): Promise<void> {
  await tx.execute(
    sql`select set_config('shop.actor_id', ${staff?.id ?? ""}, true), set_config('shop.actor_name', ${staff?.name ?? ""}, true), set_config('shop.status_note', ${note}, true)`,
  );
}
