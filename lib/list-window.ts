/**
 * A list's window as both its SQL (lib/db/list-window.ts) and its HTTP side (lib/http/pagination.ts)
 * know it: the cursor a `next` link carries, and how far a list's count is exact. Below both, so that
 * storage never imports the HTTP layer.
 */

/**
 * How far a list whose history grows without bound counts its matching rows when the database keeps
 * no count for its filters (lib/db/list-counts.ts keeps them for the API's lists): exactly up to
 * this many; beyond it, `count` is the planner's estimate (never less than the bound + 1). Today
 * that is the dashboard's order search by dates or text. Counting a million rows on every page
 * would make the list cost grow with history.
 */
export const exactCountBound = 10_000;

/** A position in a list: the sort key of its last item, each value as the database's text of it. */
export interface ListCursor {
  /** The ordering the cursor belongs to: a cursor of another ordering is refused. */
  ordering: string;
  key: string[];
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.ordering, ...cursor.key])).toString("base64url");
}

/** The cursor in `text` for `ordering` with `width` key values; null when it is not one (400 for the caller). */
export function decodeCursor(text: string, ordering: string, width: number): ListCursor | null {
  try {
    const values: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (!Array.isArray(values) || values.length !== width + 1 || values[0] !== ordering) return null;
    if (!values.every((v) => typeof v === "string" && v.length <= 200)) return null;
    return { ordering, key: values.slice(1) as string[] };
  } catch {
    return null;
  }
}
