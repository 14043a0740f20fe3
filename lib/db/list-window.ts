import { sql, type SQL } from "drizzle-orm";
import { PgTransaction, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { exactCountBound, type ListCursor } from "@/lib/list-window";
import { noSortSettings, withoutSortsPool } from "./client";
import { rowsOf } from "./map-row";
import type { DbOrTx } from "./types";

/**
 * What a list counts: the rows of `table` matching `where` (which must name only `table`'s
 * columns), read in the order of `countOrder`.
 *
 * `countOrder` is the created-at key the list's filter indexes end with ((merchant, filter…,
 * created_at, id)): counting in that order makes PostgreSQL read the bound's worth of entries from
 * the index that fits the filter (an index-only scan, a few ms for 10,001 rows) instead of taking the
 * first rows of a sequential scan, which it estimates cheaper but which reads thousands of heap pages
 * through a small buffer ring on a big table (30–60 ms at a million orders, measured). Empty for a
 * search whose filter no ordered index fits (text: the trigram index proposes candidates unordered).
 */
export interface CountedList {
  table: PgTable;
  where: SQL | undefined;
  countOrder: readonly SortKeyPart[];
  /**
   * The same rows' number as the database keeps it (`maintainedCount`, lib/db/list-counts.ts):
   * exact at any size and read from a few rows, where the list's filters are ones it keeps counts
   * by. Undefined: counted from the rows, up to the bound.
   */
  maintained?: SQL<number>;
}

/** Whether a list's `count` is exact: always when the database maintains it, else up to the bound. */
export function isExactCount(list: CountedList, count: number, bound: number = exactCountBound): boolean {
  return list.maintained !== undefined || count <= bound;
}

/** The rows `list` counts, only up to `bound` + 1 unless maintained, as a scalar subquery to select beside a page (one statement). */
function boundedCount(list: CountedList, bound: number = exactCountBound): SQL<number> {
  if (list.maintained) return list.maintained;
  const order = list.countOrder.length
    ? sql` order by ${sql.join(
        list.countOrder.map((p) => sql`${p.expression}`),
        sql`, `,
      )}`
    : sql``;
  return sql<number>`(select count(*)::int from (select 1 from ${list.table} where ${list.where ?? sql`true`}${order} limit ${bound + 1}) bounded)`.mapWith(
    Number,
  );
}

/** The same count on its own: for a page past the end, which has no row to carry it. */
async function boundedCountOf(db: DbOrTx, list: CountedList, bound: number = exactCountBound): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`select ${boundedCount(list, bound)} as total`));
  return Number(row?.total ?? 0);
}

/**
 * The `count` a list answers from `bounded` (its matching rows counted up to the bound + 1, or
 * its maintained count): exact up to the bound, or at any size when maintained; beyond the bound,
 * PostgreSQL's estimate of the matching rows (from its statistics, no rows read), never less than
 * the bound + 1.
 */
export async function listCount(db: DbOrTx, list: CountedList, bounded: number, bound: number = exactCountBound): Promise<number> {
  if (isExactCount(list, bounded, bound)) return bounded;
  const [row] = rowsOf(await db.execute(sql`explain (format json) select 1 from ${list.table} where ${list.where ?? sql`true`}`));
  const plan = row?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan?: { "Plan Rows"?: number } }> | undefined;
  const estimate = Math.round(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
  return Math.max(bound + 1, estimate);
}

/** A column of a list's sort key and the type its cursor text is read back as. */
export interface SortKeyPart {
  expression: SQL | PgColumn;
  type: "timestamptz" | "numeric" | "text" | "integer";
}

/** The sort key of a row as the cursor carries it: each part as the database's own text (exact: microseconds, big numerics). */
export function sortKeyText(parts: readonly SortKeyPart[]): SQL<string[]> {
  return sql<string[]>`array[${sql.join(
    parts.map((p) => sql`(${p.expression})::text`),
    sql`, `,
  )}]`;
}

/**
 * Rows strictly after `cursor` in the list's order: one row comparison the sort key's index
 * answers as a range, so a deep page reads only its own rows. All parts sort the same direction.
 */
export function afterCursor(parts: readonly SortKeyPart[], cursor: ListCursor | null, descending: boolean): SQL | undefined {
  if (!cursor) return undefined;
  const left = sql.join(
    parts.map((p) => sql`${p.expression}`),
    sql`, `,
  );
  const right = sql.join(
    parts.map((p, i) => sql`${cursor.key[i]}::${sql.raw(p.type)}`),
    sql`, `,
  );
  return sql`(${left}) ${sql.raw(descending ? "<" : ">")} (${right})`;
}

/** Where a keyset list page starts: an offset (page numbers) or, from a `next` link, after a cursor. */
export interface KeysetWindow {
  limit: number;
  offset: number;
  after: ListCursor | null;
}

/**
 * A page read with one extra row (`limit + 1`, each row with its `sortKey` and the bounded
 * `total`): the page, the key a next page starts after (null: none) and the list's count.
 */
async function settlePage<R extends { sortKey: string[]; total: number }>(
  db: DbOrTx,
  list: CountedList,
  found: R[],
  window: KeysetWindow,
  bound: number = exactCountBound,
): Promise<{ page: R[]; count: number; nextKey: string[] | null }> {
  const page = found.slice(0, window.limit);
  const last = page[page.length - 1];
  const nextKey = found.length > window.limit && last ? last.sortKey : null;
  // A page past the end has no row to carry the total: count separately (rare).
  const bounded = found.length > 0 ? found[0]!.total : window.offset === 0 && !window.after ? 0 : await boundedCountOf(db, list, bound);
  return { page, count: await listCount(db, list, bounded, bound), nextKey };
}

/** How one read of a list page runs: in the list's order or reversed, from where, how many rows, and the count to select beside. */
export interface PageRead {
  /** Read in the opposite order (the caller flips every sort key's direction); the rows come back reversed. */
  reverse: boolean;
  offset: number;
  limit: number;
  /** Select as `total`: the bounded count, or null when the count is already known. */
  total: SQL<number | null>;
  /** Rows strictly after the `next` link's cursor, in the list's order (undefined: none). */
  after: ListCursor | null;
}

/**
 * Runs `read` on a handle whose planner may not sort (`noSortSettings`: `enable_sort` and
 * `enable_incremental_sort` off), so a statement an index answers in order is read from that index
 * whatever the planner believes of the rows it would match. On PostgreSQL that is a pool of its own
 * (`withoutSortsPool`: no statement more); on PGlite and inside a caller's transaction, a
 * (sub)transaction that sets them for itself and, inside a caller's, puts them back after.
 *
 * Why: the planner weighs reading an index in order against fetching every match and sorting it by
 * how many rows it thinks match. A merchant's rows it has no statistics for (a table never analyzed:
 * autovacuum off or behind, PGlite, which has none; or a merchant grown since the last ANALYZE beside
 * a bigger history) are estimated at a few dozen or one; once the page's OFFSET + LIMIT passes that,
 * LIMIT no longer makes the ordered read cheaper, and it picks a bitmap scan that fetches and sorts
 * the merchant's whole history: page 20 cost 4.7× more at 20,000 orders than at 1,000
 * (docs/decisions.md, issue 51 item 6). Only for statements whose filter and order one index serves
 * with no other condition: there the ordered read takes exactly the rows the page needs, never more,
 * while a statement whose filter the index does not hold could be made to walk a history row by row.
 */
export async function withoutSorts<T>(db: DbOrTx, read: (handle: DbOrTx) => Promise<T>): Promise<T> {
  const pool = withoutSortsPool(db);
  if (pool) return read(pool);
  const nested = db instanceof PgTransaction;
  const settings = Object.entries(noSortSettings);
  return db.transaction(async (tx) => {
    const [before] = rowsOf(
      await tx.execute(
        sql`select ${sql.join(
          settings.map(([name, value]) => sql`current_setting(${name}) as ${sql.identifier(name)}, set_config(${name}, ${value}, true)`),
          sql`, `,
        )}`,
      ),
    );
    const result = await read(tx);
    if (nested)
      await tx.execute(
        sql`select ${sql.join(
          settings.map(([name]) => sql`set_config(${name}, ${String(before![name])}, true)`),
          sql`, `,
        )}`,
      );
    return result;
  });
}

/**
 * A page of a keyset list, read without scanning what it skips where it can:
 * - first page, or a page reached by a `next` link's cursor: one statement, page and bounded count;
 * - a page number past the first: the count first (the maintained count, or exact up to
 *   `exactCountBound`, else the estimate), then the page from the nearer end: when fewer rows follow the page than precede
 *   it, it is read in the reverse order with the offset counted from the end, and turned back.
 *   With an exact count that is the same page OFFSET would give; with an estimate the page
 *   numbers from the end are positions against that estimate (docs/design/data-and-counts.md › Lists).
 * `read` runs the list's statement for one `PageRead` on the handle it is given; each row carries its sort key and `total`.
 * `bound`: how far the count is exact (`exactCountBound` unless a list says otherwise).
 * `fromNearerEnd` false: always read forward from the offset, the page OFFSET gives even with an
 * estimated count (for a list that reads all its matches to sort them anyway: nothing to save).
 * `inIndexOrder`: the list's filter and order are one index's, with no other condition: read with
 * the planner's sorts off (`withoutSorts`), so no page sorts the history whatever the statistics.
 */
export async function readKeysetPage<R extends { sortKey: string[]; total: number | null }>(
  db: DbOrTx,
  list: CountedList,
  window: KeysetWindow,
  read: (spec: PageRead, db: DbOrTx) => Promise<R[]>,
  { bound = exactCountBound, fromNearerEnd = true, inIndexOrder = false }: { bound?: number; fromNearerEnd?: boolean; inIndexOrder?: boolean } = {},
): Promise<{ page: R[]; count: number; nextKey: string[] | null }> {
  if (inIndexOrder) return withoutSorts(db, (handle) => readPageOn(handle, list, window, read, bound, fromNearerEnd));
  return readPageOn(db, list, window, read, bound, fromNearerEnd);
}

async function readPageOn<R extends { sortKey: string[]; total: number | null }>(
  db: DbOrTx,
  list: CountedList,
  window: KeysetWindow,
  read: (spec: PageRead, db: DbOrTx) => Promise<R[]>,
  bound: number,
  fromNearerEnd: boolean,
): Promise<{ page: R[]; count: number; nextKey: string[] | null }> {
  if (window.after || window.offset === 0) {
    const found = await read({ reverse: false, offset: 0, limit: window.limit + 1, total: boundedCount(list, bound), after: window.after }, db);
    return settlePage(db, list, found as Array<R & { total: number }>, window, bound);
  }
  const count = await listCount(db, list, await boundedCountOf(db, list, bound), bound);
  // Past the end of an exact count there is nothing; past an estimate, a list read forward still
  // finds the rows OFFSET gives (a list read from the nearer end numbers its pages against the estimate).
  if (window.offset >= count && (isExactCount(list, count, bound) || fromNearerEnd)) return { page: [], count, nextKey: null };
  const following = count - window.offset - window.limit;
  const known = sql<null>`null::int`;
  if (fromNearerEnd && following < window.offset) {
    const found = await read(
      { reverse: true, offset: Math.max(0, following), limit: Math.min(window.limit, count - window.offset), total: known, after: null },
      db,
    );
    const page = found.reverse();
    const last = page[page.length - 1];
    return { page, count, nextKey: following > 0 && last ? last.sortKey : null };
  }
  const found = await read({ reverse: false, offset: window.offset, limit: window.limit + 1, total: known, after: null }, db);
  const page = found.slice(0, window.limit);
  const last = page[page.length - 1];
  return { page, count, nextKey: found.length > window.limit && last ? last.sortKey : null };
}
