/** The lists' maintained counts (lib/db/list-counts.ts). */
import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The lists' maintained counts (issue 31): per merchant, list and key, how many rows the list holds,
 * so a list's `count` is exact and reads a few rows at any history. The key is what the list
 * filters by: orders and transactions by chain (`scope_id`), status (`kind`) and currency; events
 * by type (`kind`); webhook deliveries by endpoint (`scope_id`) and status (`kind`); 0 and '' where
 * a list has no such part. Kept like the per-day totals: statement triggers on each list's table
 * (migration list_counts) append signed changes to `list_count_changes` in the writing transaction;
 * `foldListCounts` moves them into these rows; a reader sums both tables in one statement
 * (lib/db/list-counts.ts).
 */
const listCountKey = {
  merchantId: integer("merchant_id").notNull(),
  list: text("list").notNull(),
  scopeId: integer("scope_id").notNull(),
  kind: text("kind").notNull(),
  currency: text("currency").notNull(),
  rows: bigint("rows", { mode: "number" }).notNull(),
};

export const listCounts = pgTable("list_counts", listCountKey, (t) => [
  primaryKey({ name: "list_counts_pk", columns: [t.merchantId, t.list, t.scopeId, t.kind, t.currency] }),
]);

export const listCountChanges = pgTable(
  "list_count_changes",
  { id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity().primaryKey(), ...listCountKey },
  (t) => [index("list_count_changes_merchant_idx").on(t.merchantId, t.id)],
);
