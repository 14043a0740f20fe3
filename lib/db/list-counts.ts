import { sql, type SQL } from "drizzle-orm";
import { listCountChanges, listCounts } from "./schema";
import { foldEveryMerchant, foldMerchantChanges, type FoldedTotals } from "./folded-changes";
import type { DbOrTx } from "./types";

/** The lists whose rows are counted as they are written (migration list_counts). */
export type CountedListName = "orders" | "transactions" | "events" | "deliveries";

/** Which of a list's counted rows a filter keeps, by the parts of its key (lib/db/schema/list-counts.ts, `listCounts`). */
export interface CountedKeys {
  /** The chain (orders, transactions) or the endpoint (deliveries). */
  scopeId?: number;
  /** Statuses (orders, transactions, deliveries) or event types (events): any of them. */
  kinds?: readonly string[];
  /** Compared case-insensitively, as the orders list's filter does. */
  currency?: string;
}

/**
 * The exact number of the merchant's rows in `list` matching `keys`, as a scalar subquery: the
 * folded counts plus the changes not folded yet, summed in one statement (one snapshot: a change
 * is in one table or the other, never both). Reads the merchant's few count rows and its pending
 * changes (`foldListCounts` keeps those few), however long its history.
 */
export function maintainedCount(list: CountedListName, merchantId: number, keys: CountedKeys): SQL<number> {
  const matching = (table: typeof listCounts | typeof listCountChanges) =>
    sql.join(
      [
        sql`${table.merchantId} = ${merchantId}`,
        sql`${table.list} = ${list}`,
        keys.scopeId !== undefined ? sql`${table.scopeId} = ${keys.scopeId}` : undefined,
        keys.kinds === undefined
          ? undefined
          : keys.kinds.length === 1
            ? sql`${table.kind} = ${keys.kinds[0]}`
            : sql`${table.kind} in (${sql.join(
                keys.kinds.map((kind) => sql`${kind}`),
                sql`, `,
              )})`,
        keys.currency !== undefined ? sql`lower(${table.currency}) = lower(${keys.currency})` : undefined,
      ].filter((part): part is SQL => part !== undefined),
      sql` and `,
    );
  return sql<number>`(select coalesce(sum(n), 0)::int from (
      select ${listCounts.rows} as n from ${listCounts} where ${matching(listCounts)}
      union all
      select ${listCountChanges.rows} from ${listCountChanges} where ${matching(listCountChanges)}
    ) counted)`.mapWith(Number);
}

/** How the counts' changes fold (lib/db/folded-changes.ts). */
const listCountTotals: FoldedTotals = {
  lock: "list_counts",
  changes: listCountChanges,
  totals: listCounts,
  keys: ["list", "scope_id", "kind", "currency"],
  sums: ["rows"],
};

/** Folds up to `limit` of the merchant's pending count changes into its counts (`foldMerchantChanges`). Returns the changes folded. */
export function foldListCounts(db: DbOrTx, merchantId: number, limit = 10_000): Promise<number> {
  return foldMerchantChanges(db, listCountTotals, merchantId, limit);
}

/** Every merchant's pending count changes folded, batch by batch: stops when aborted. Returns the changes folded. */
export function foldAllListCounts(db: DbOrTx, options: { signal?: AbortSignal; limit?: number } = {}): Promise<number> {
  return foldEveryMerchant(db, listCountTotals, options);
}
