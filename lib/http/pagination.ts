import { z } from "zod";
import type { ApiResult } from "./envelope";

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

/** The spec's list shape `{ count, next, previous, results }`; next/previous are paths keeping the other query parameters. */
export function page(url: URL, query: PageQuery, count: number, results: unknown[]): ApiResult {
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
