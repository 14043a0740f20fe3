import { getTableColumns, type Table } from "drizzle-orm";

/**
 * Rows of `db.execute(sql…)`, whichever driver ran it (postgres.js answers an array, PGlite
 * an object with `rows`). Used where one hand-written statement does the work of several.
 */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : ((result as { rows: Record<string, unknown>[] }).rows ?? []);
}

/**
 * A table's row out of a raw result row, through the columns' own mappers (timestamps to Date,
 * bigint to number, …), as a drizzle select would give it. `prefix` picks aliased columns.
 */
export function tableRowOf<T extends Table>(table: T, row: Record<string, unknown>, prefix = ""): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [property, column] of Object.entries(getTableColumns(table))) {
    const value = row[prefix + column.name];
    out[property] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T["$inferSelect"];
}
