import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { rowsOf } from "./map-row";
import type { DbOrTx } from "./types";

/**
 * Totals kept as signed changes that statement triggers append in the writing transaction
 * (`order_day_totals`, `list_counts`): a reader sums the totals and the changes not folded yet;
 * folding moves changes into the totals. The changes table has the totals' columns plus an `id`.
 */
export interface FoldedTotals {
  /** Names the advisory lock that keeps two folds of one merchant apart. */
  lock: string;
  changes: PgTable;
  totals: PgTable;
  /** The totals' key columns after merchant_id (their primary key is merchant_id and these). */
  keys: readonly string[];
  /** The columns summed per key. */
  sums: readonly string[];
}

const columnList = (names: readonly string[]): SQL =>
  sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );

/**
 * Folds up to `limit` of the merchant's pending changes into its totals, in one statement: the
 * changes are deleted and added in the same transaction, so a reader sees each in one table.
 * Concurrent folds of one merchant do not wait on each other: the one without the advisory lock
 * folds nothing (its reader still sums the changes). Returns the changes folded.
 */
export async function foldMerchantChanges(db: DbOrTx, totals: FoldedTotals, merchantId: number, limit = 10_000): Promise<number> {
  const keys = columnList(["merchant_id", ...totals.keys]);
  const added = sql.join(
    totals.sums.map((name) => sql`${sql.identifier(name)} = ${totals.totals}.${sql.identifier(name)} + excluded.${sql.identifier(name)}`),
    sql`, `,
  );
  const [row] = rowsOf(
    await db.execute(sql`
      with lock as (select pg_try_advisory_xact_lock(hashtext(${totals.lock}), ${merchantId}) as held),
      moved as (
        delete from ${totals.changes} where id in (
          select id from ${totals.changes} where merchant_id = ${merchantId} and (select held from lock)
          order by id limit ${limit} for update skip locked)
        returning *
      ),
      folded as (
        insert into ${totals.totals} (${keys}, ${columnList(totals.sums)})
        select ${keys}, ${sql.join(
          totals.sums.map((name) => sql`sum(${sql.identifier(name)})`),
          sql`, `,
        )}
        from moved group by ${keys}
        order by ${keys}
        on conflict (${keys}) do update set ${added}
        returning 1
      )
      select (select count(*) from moved)::int as n, (select count(*) from folded)::int as keys`),
  );
  return Number(row?.n ?? 0);
}

/** Every merchant's pending changes folded, batch by batch, oldest first: stops when aborted. Returns the changes folded. */
export async function foldEveryMerchant(db: DbOrTx, totals: FoldedTotals, options: { signal?: AbortSignal; limit?: number } = {}): Promise<number> {
  let folded = 0;
  for (;;) {
    const [next] = rowsOf(await db.execute(sql`select merchant_id from ${totals.changes} order by id limit 1`));
    if (!next || options.signal?.aborted) return folded;
    const n = await foldMerchantChanges(db, totals, Number(next.merchant_id), options.limit);
    folded += n;
    // Another fold holds this merchant (it folds nothing here): leave the rest for the next run.
    if (n === 0) return folded;
  }
}
