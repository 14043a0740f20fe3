import { sql, type SQL } from "drizzle-orm";
import { listCountChanges, listCounts } from "./schema";
import { rowsOf } from "./map-row";
import type { DbOrTx } from "./types";

/** The lists whose rows are counted as they are written (migration list_counts). */
export type CountedListName = "orders" | "transactions" | "events" | "deliveries";

/** Which of a list's counted rows a filter keeps, by the parts of its key (lib/db/schema.ts, `listCounts`). */
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

/**
 * Folds up to `limit` of the merchant's pending count changes into its counts, in one statement:
 * deleted and added in the same transaction, so a reader sees each change in one table. Concurrent
 * folds of one merchant do not wait on each other: the one without the advisory lock folds nothing.
 * Returns the changes folded.
 */
export async function foldListCounts(db: DbOrTx, merchantId: number, limit = 10_000): Promise<number> {
  const [row] = rowsOf(
    await db.execute(sql`
      with lock as (select pg_try_advisory_xact_lock(hashtext('list_counts'), ${merchantId}) as held),
      moved as (
        delete from ${listCountChanges} where id in (
          select id from ${listCountChanges} where merchant_id = ${merchantId} and (select held from lock)
          order by id limit ${limit} for update skip locked)
        returning *
      ),
      folded as (
        insert into ${listCounts} (merchant_id, list, scope_id, kind, currency, rows)
        select merchant_id, list, scope_id, kind, currency, sum(rows) from moved
        group by merchant_id, list, scope_id, kind, currency
        order by list, scope_id, kind, currency
        on conflict (merchant_id, list, scope_id, kind, currency) do update set rows = ${listCounts}.rows + excluded.rows
        returning 1
      )
      select (select count(*) from moved)::int as n, (select count(*) from folded)::int as keys`),
  );
  return Number(row?.n ?? 0);
}

/** Every merchant's pending count changes folded, batch by batch: stops when aborted. Returns the changes folded. */
export async function foldAllListCounts(db: DbOrTx, options: { signal?: AbortSignal; limit?: number } = {}): Promise<number> {
  const limit = options.limit ?? 10_000;
  let folded = 0;
  for (;;) {
    const [next] = rowsOf(await db.execute(sql`select merchant_id from ${listCountChanges} order by id limit 1`));
    if (!next || options.signal?.aborted) return folded;
    const n = await foldListCounts(db, Number(next.merchant_id), limit);
    folded += n;
    // Another fold holds this merchant (it folds nothing here): leave the rest for the next run.
    if (n === 0) return folded;
  }
}
