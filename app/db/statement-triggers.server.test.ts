import { randomUUID } from "node:crypto";
import pg from "pg";
import { expect, inject, test } from "vitest";

// The title tables' and store items' statement triggers read the rows a statement changed
// (transition tables). A PL/pgSQL function plans each of its queries once per connection, for the
// rows of the first statement it sees; the pool's connections see an order's few rows first, and
// an import's batches of thousands later. A query joining the old rows to the new ones was then a
// nested loop that compared every old row with every new one: an import of 100,000 changed titles
// took 107 s, most of it there (drizzle/0048_statement_triggers_linear.sql).

type PlanNode = { "Node Type": string; Plans?: PlanNode[] };

const scansTransitionRows = (node: PlanNode): boolean =>
  node["Node Type"] === "Named Tuplestore Scan" || (node.Plans ?? []).some(scansTransitionRows);

/** Nested loops whose both sides read a statement's changed rows, in a plan and below it. */
function rowsAgainstRows(node: PlanNode): PlanNode[] {
  const here =
    node["Node Type"] === "Nested Loop" &&
    (node.Plans ?? []).length === 2 &&
    node.Plans!.every(scansTransitionRows)
      ? [node]
      : [];
  return [...here, ...(node.Plans ?? []).flatMap(rowsAgainstRows)];
}

test("no trigger compares every changed row with every other, whatever plan it was given first", async () => {
  const client = new pg.Client(inject("databaseUrl"));
  await client.connect();
  const plans: PlanNode[] = [];
  try {
    await client.query("begin");
    // Every statement's plan, the triggers' own included, sent to this connection as a notice.
    await client.query("load 'auto_explain'");
    for (const [name, value] of [
      ["auto_explain.log_min_duration", "0"],
      ["auto_explain.log_nested_statements", "on"],
      ["auto_explain.log_format", "json"],
      ["auto_explain.log_level", "notice"],
    ]) {
      await client.query("select set_config($1, $2, true)", [name, value]);
    }
    const tag = randomUUID().slice(0, 8);
    await client.query(
      `insert into regular_titles (product_id, title, disc, current_price_cents, qty_to_list)
       select 'TRG-' || $1 || '-' || g, 'Trigger Probe ' || g, 'DVD', 900, g % 3
         from generate_series(1, 40) as g`,
      [tag],
    );
    await client.query(
      `insert into adult_titles (product_id, production, title, price_cents, quantity)
       select 900000, 'Trigger Tests', 'Trigger Probe ' || g, 900, g % 3
         from generate_series(1, 40) as g`,
    );
    await client.query(
      `insert into store_items (sku, name, price_cents, stock)
       select 'TRG-' || $1 || '-' || g, 'Trigger Probe ' || g, 900, g % 3
         from generate_series(1, 40) as g`,
      [tag],
    );
    const change = async (rows: number) => {
      await client.query(
        `update regular_titles set qty_to_list = qty_to_list + 1, title = title || ' again'
          where reg_serial_no in (select reg_serial_no from regular_titles
                                   where product_id like 'TRG-' || $1 || '-%' limit $2)`,
        [tag, rows],
      );
      await client.query(
        `update adult_titles set quantity = quantity + 1
          where adult_serial_no in (select adult_serial_no from adult_titles
                                     where production = 'Trigger Tests' and title like 'Trigger Probe %'
                                     order by adult_serial_no desc limit $1)`,
        [rows],
      );
      await client.query(
        `update store_items set stock = stock + 1
          where id in (select id from store_items where sku like 'TRG-' || $1 || '-%' limit $2)`,
        [tag, rows],
      );
    };
    // First one row of each, as an order changes them: each trigger's queries are planned now.
    await change(1);
    client.on("notice", (notice) => {
      const json = /plan:\s*(\{[\s\S]*\})\s*$/.exec(notice.message ?? "")?.[1];
      if (json) plans.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
    });
    // Then forty, as an import's batch changes them, with the plans made for one.
    await change(40);
  } finally {
    await client.query("rollback");
    await client.end();
  }
  const triggerPlans = plans.filter(scansTransitionRows);
  // The ledger's three, the restock alerts', the search words', the page cache's and the counts'.
  expect(triggerPlans.length).toBeGreaterThanOrEqual(7);
  expect(triggerPlans.flatMap(rowsAgainstRows)).toEqual([]);
});
