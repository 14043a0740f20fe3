import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { exactCountBound, type ListCursor } from "@/lib/http/pagination";
import { rowsOf } from "./map-row";
import type { DbOrTx } from "./types";

/**
 * The rows matching `where`, counted only up to `exactCountBound` + 1, as a scalar subquery to
 * select beside a page (one statement). `where` must name only `table`'s columns.
 */
export function boundedCount(table: PgTable, where: SQL | undefined): SQL<number> {
  return sql<number>`(select count(*)::int from (select 1 from ${table} where ${where ?? sql`true`} limit ${exactCountBound + 1}) bounded)`.mapWith(Number);
}

/** The same count on its own: for a page past the end, which has no row to carry it. */
export async function boundedCountOf(db: DbOrTx, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`select ${boundedCount(table, where)} as total`));
  return Number(row?.total ?? 0);
}

/**
 * The `count` a list answers: exact up to the bound; beyond it, PostgreSQL's estimate of the
 * matching rows (from its statistics, no rows read), never less than the bound + 1.
 */
export async function listCount(db: DbOrTx, table: PgTable, where: SQL | undefined, bounded: number): Promise<number> {
  if (bounded <= exactCountBound) return bounded;
  const [row] = rowsOf(await db.execute(sql`explain (format json) select 1 from ${table} where ${where ?? sql`true`}`));
  const plan = row?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan?: { "Plan Rows"?: number } }> | undefined;
  const estimate = Math.round(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
  return Math.max(exactCountBound + 1, estimate);
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
export async function settlePage<R extends { sortKey: string[]; total: number }>(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  found: R[],
  window: KeysetWindow,
): Promise<{ page: R[]; count: number; nextKey: string[] | null }> {
  const page = found.slice(0, window.limit);
  const last = page[page.length - 1];
  const nextKey = found.length > window.limit && last ? last.sortKey : null;
  // A page past the end has no row to carry the total: count separately (rare).
  const bounded = found.length > 0 ? found[0]!.total : window.offset === 0 && !window.after ? 0 : await boundedCountOf(db, table, where);
  return { page, count: await listCount(db, table, where, bounded), nextKey };
}
