import { z } from "zod";
import type { ApiResult } from "./envelope";
import { decodeCursor, type ListCursor } from "@/lib/list-window";
import { validationError } from "./errors";

/** 100 = spec max page_size; larger values are capped, not rejected (DESIGN › API decisions). */
export const maxPageSize = 100;
export const defaultPageSize = 20;

const wholeNumber = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number.`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${name} must be at least 1.`));

/** page / page_size query parameters, shared by every list endpoint. */
export const pageQuery = z.object({
  page: wholeNumber("page").default(1),
  page_size: wholeNumber("page_size")
    .transform((n) => Math.min(n, maxPageSize))
    .default(defaultPageSize),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function pageWindow(query: PageQuery): { limit: number; offset: number } {
  return { limit: query.page_size, offset: (query.page - 1) * query.page_size };
}

/** The spec's list shape. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** The spec's list shape `{ count, next, previous, results }`; next/previous are paths keeping the other query parameters. */
export function page<T>(url: URL, query: PageQuery, count: number, results: T[]): ApiResult<Page<T>, 200> {
  const linkTo = (pageNumber: number) => {
    const params = new URLSearchParams(url.searchParams);
    params.set("page", String(pageNumber));
    params.set("page_size", String(query.page_size));
    return `${url.pathname}?${params.toString()}`;
  };
  const lastPage = Math.max(1, Math.ceil(count / query.page_size));
  return {
    status: 200,
    body: {
      count,
      next: query.page < lastPage ? linkTo(query.page + 1) : null,
      previous: query.page > 1 ? linkTo(Math.min(query.page - 1, lastPage)) : null,
      results,
    },
  };
}

/**
 * page / page_size plus `cursor`: the `next` links of lists with a keyset carry one, so following
 * them never makes the database skip the pages before (OFFSET reads and drops every skipped row).
 */
export const keysetPageQuery = pageQuery.extend({
  cursor: z
    .string()
    .max(1024)
    .regex(/^[A-Za-z0-9_-]+$/, "Must be a cursor taken from a next link.")
    .optional()
    .describe("Opaque: set by `next` links, which page on from the previous page's last item however deep the page; leave it out to jump to a page number"),
});
export type KeysetPageQuery = z.infer<typeof keysetPageQuery>;

/**
 * The spec's list shape for a list read with one extra row: `next` exists when that row did, and
 * carries the cursor of this page's last item beside the next page number; `previous` is the page
 * number before (no cursor).
 */
export function keysetPage<T>(url: URL, query: KeysetPageQuery, count: number, results: T[], nextCursor: string | null): ApiResult<Page<T>, 200> {
  const linkTo = (pageNumber: number, cursor: string | null) => {
    const params = new URLSearchParams(url.searchParams);
    params.set("page", String(pageNumber));
    params.set("page_size", String(query.page_size));
    if (cursor) params.set("cursor", cursor);
    else params.delete("cursor");
    return `${url.pathname}?${params.toString()}`;
  };
  const lastPage = Math.max(1, Math.ceil(count / query.page_size));
  return {
    status: 200,
    body: {
      count,
      next: nextCursor ? linkTo(query.page + 1, nextCursor) : null,
      previous: query.page > 1 ? linkTo(Math.min(query.page - 1, lastPage), null) : null,
      results,
    },
  };
}

/** The cursor of a keyset list query (null: none given); a malformed one, or one of another ordering, is 400 VALIDATION_ERROR. */
export function cursorOf(query: KeysetPageQuery, ordering: string, width: number): ListCursor | null {
  if (query.cursor === undefined) return null;
  const cursor = decodeCursor(query.cursor, ordering, width);
  if (!cursor) throw validationError({ cursor: ["Must be a cursor taken from a next link of this list and ordering."] });
  return cursor;
}

/** `pageWindow` plus the cursor, for keyset lists. */
export function keysetWindow(query: KeysetPageQuery, ordering: string, width: number) {
  return { ...pageWindow(query), after: cursorOf(query, ordering, width) };
}
