import { and, asc, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { paymentOrders, type PaymentOrder } from "@/lib/db/schema";
import { maintainedCount } from "@/lib/db/list-counts";
import { afterCursor, readKeysetPage, sortKeyText, type KeysetWindow, type SortKeyPart } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";
import type { OrderingField } from "../schemas";

export interface OrderFilters {
  status?: string;
  blockchainId?: number;
  /** Matched case-insensitively. */
  currency?: string;
  nonce?: number;
}

/**
 * Amounts compare by value, not by base units: 1 USDC (10^6 units) is more than 0.001 ETH
 * (10^15 units). Scaling every amount to 36 decimals keeps the comparison exact.
 */
const amountValue = sql`(${paymentOrders.amount} * power(10::numeric, 36 - ${paymentOrders.decimals}))`;

/**
 * Each ordering's full sort key, the same direction throughout, so one index serves it and a
 * cursor is one row comparison: created_at then id; amount (by value) then id; status then
 * created_at then id (so the status index also serves the status filter).
 */
export const sortKeys: Record<OrderingField, SortKeyPart[]> = {
  created_at: [
    { expression: paymentOrders.createdAt, type: "timestamptz" },
    { expression: paymentOrders.id, type: "integer" },
  ],
  amount: [
    { expression: amountValue, type: "numeric" },
    { expression: paymentOrders.id, type: "integer" },
  ],
  status: [
    { expression: paymentOrders.status, type: "text" },
    { expression: paymentOrders.createdAt, type: "timestamptz" },
    { expression: paymentOrders.id, type: "integer" },
  ],
};

export const orderSortKeyWidth = (field: OrderingField) => sortKeys[field].length;

/**
 * The merchant's orders by status, chain and token as the database keeps their number: exact, a few
 * rows read. An empty status or token filters nothing, as in the dashboard's `orderFilterWhere`.
 */
export function maintainedOrderCount(merchantId: number, filters: { status?: string; blockchainId?: number; currency?: string }) {
  return maintainedCount("orders", merchantId, {
    kinds: filters.status ? [filters.status] : undefined,
    scopeId: filters.blockchainId,
    currency: filters.currency || undefined,
  });
}

/**
 * Whether one of the orders' list indexes holds the filters and the ordering with no other
 * condition, so reading it in order takes exactly the page's rows (`readKeysetPage`'s
 * `inIndexOrder`): (merchant, created_at, id) and (merchant, amount value, id) unfiltered; the
 * status, chain and currency indexes, each (merchant, X, created_at, id), for one of those filters
 * by created_at, and the status one for the status ordering. Not a nonce (one order at most, by its
 * own index) nor two filters (one index holds one of them; the planner weighs the rest).
 */
export function indexServesOrder(filters: OrderFilters, field: OrderingField): boolean {
  if (filters.nonce !== undefined) return false;
  const held = [filters.status !== undefined && "status", filters.blockchainId !== undefined && "chain", filters.currency !== undefined && "currency"].filter(
    Boolean,
  );
  if (held.length === 0) return true;
  if (held.length > 1) return false;
  return field === "created_at" || (field === "status" && held[0] === "status");
}

/**
 * One page of a merchant's orders and the total matching the filters (exact: the maintained
 * count; with a nonce, which matches one order at most, counted). The page is read with one extra
 * row, which says whether a next page exists; `after` (a cursor) replaces the offset for pages
 * reached by `next` links.
 */
export async function listOrders(
  db: DbOrTx,
  merchantId: number,
  filters: OrderFilters,
  ordering: { field: OrderingField; descending: boolean },
  window: KeysetWindow,
) {
  const where = and(
    eq(paymentOrders.merchantId, merchantId),
    filters.status !== undefined ? eq(paymentOrders.status, filters.status) : undefined,
    filters.blockchainId !== undefined ? eq(paymentOrders.blockchainId, filters.blockchainId) : undefined,
    filters.currency !== undefined ? sql`lower(${paymentOrders.currency}) = lower(${filters.currency})` : undefined,
    filters.nonce !== undefined ? eq(paymentOrders.nonce, filters.nonce) : undefined,
  );
  const keys = sortKeys[ordering.field];
  // The nonce filter is the one the maintained counts are not kept by (it matches one order at most).
  const maintained = filters.nonce === undefined ? maintainedOrderCount(merchantId, filters) : undefined;
  // Page and total in one statement (an uncorrelated subquery, run once); deep page numbers from the nearer end.
  const { page, count, nextKey } = await readKeysetPage(
    db,
    { table: paymentOrders, where, countOrder: sortKeys.created_at, maintained },
    window,
    (read, handle) => {
      const direction = ordering.descending !== read.reverse ? desc : asc;
      return handle
        .select({ order: getTableColumns(paymentOrders), sortKey: sortKeyText(keys), total: read.total })
        .from(paymentOrders)
        .where(and(where, afterCursor(keys, read.after, ordering.descending)))
        .orderBy(...keys.map((k) => direction(k.expression)))
        .limit(read.limit)
        .offset(read.offset);
    },
    { inIndexOrder: indexServesOrder(filters, ordering.field) },
  );
  return { rows: page.map((row): PaymentOrder => row.order), count, nextKey };
}

export async function recentOrders(db: DbOrTx, merchantId: number, limit: number) {
  return db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.merchantId, merchantId))
    .orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id))
    .limit(limit);
}
