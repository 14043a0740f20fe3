import { and, asc, desc, eq, sql } from "drizzle-orm";
import { accountEvents, orderEvents, paymentOrders, type OrderEvent } from "@/lib/db/schema";
import { maintainedCount } from "@/lib/db/list-counts";
import { afterCursor, readKeysetPage, sortKeyText, type KeysetWindow, type SortKeyPart } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";

type NewAccountEvent = typeof accountEvents.$inferInsert;

/**
 * The one writer of order events, called only by the outbox (lib/webhooks/outbox.ts). The sequence
 * is the order's next (1, 2, 3…): computed in the insert, inside the transaction that holds the
 * order's row lock (the outbox takes it first), so two events of one order can never take the
 * same number (a unique index checks it too).
 */
export async function insertEvent(db: DbOrTx, values: Omit<typeof orderEvents.$inferInsert, "sequence">): Promise<OrderEvent> {
  const sequence = sql<number>`(select coalesce(max(e.sequence), 0) + 1 from ${orderEvents} e where e.payment_order_id = ${values.paymentOrderId})`;
  const [row] = await db
    .insert(orderEvents)
    .values({ ...values, sequence })
    .returning();
  return row!;
}

/** The event list's order, newest first: created_at, then sequence, then id (the merchant's events index). */
export const eventSortKey: SortKeyPart[] = [
  { expression: orderEvents.createdAt, type: "timestamptz" },
  { expression: orderEvents.sequence, type: "integer" },
  { expression: orderEvents.id, type: "text" },
];

/**
 * One page of a merchant's events, newest first, each with its order's public id; the count exact
 * (the maintained count; by order, counted from its few events), deep page numbers read from the
 * nearer end (`readKeysetPage`). The order filter resolves the order by its key first, so the
 * filter and the count read only `order_events`.
 */
export async function listEvents(db: DbOrTx, merchantId: number, filters: { type?: string; orderId?: string }, window: KeysetWindow) {
  const where = and(
    eq(orderEvents.merchantId, merchantId),
    filters.type ? eq(orderEvents.type, filters.type) : undefined,
    filters.orderId
      ? eq(orderEvents.paymentOrderId, sql`(select o.id from ${paymentOrders} o where o.order_id = ${filters.orderId} and o.merchant_id = ${merchantId})`)
      : undefined,
  );
  // By order, the count reads the order's few events; otherwise the database keeps it.
  const maintained = filters.orderId ? undefined : maintainedCount("events", merchantId, { kinds: filters.type ? [filters.type] : undefined });
  const { page, count, nextKey } = await readKeysetPage(db, { table: orderEvents, where, countOrder: eventSortKey, maintained }, window, (read) =>
    db
      .select({ event: orderEvents, orderId: paymentOrders.orderId, sortKey: sortKeyText(eventSortKey), total: read.total })
      .from(orderEvents)
      .innerJoin(paymentOrders, eq(paymentOrders.id, orderEvents.paymentOrderId))
      .where(and(where, afterCursor(eventSortKey, read.after, true)))
      .orderBy(...eventSortKey.map((k) => (read.reverse ? asc : desc)(k.expression)))
      .limit(read.limit)
      .offset(read.offset),
  );
  return { rows: page, count, nextKey };
}

/** Records an account event (wallet.updated), the account's counterpart of an order event. */
export async function insertAccountEvent(db: DbOrTx, values: NewAccountEvent): Promise<void> {
  await db.insert(accountEvents).values(values);
}

/** The merchant's account events, oldest first. */
export async function listAccountEvents(db: DbOrTx, merchantId: number) {
  return db.select().from(accountEvents).where(eq(accountEvents.merchantId, merchantId)).orderBy(asc(accountEvents.createdAt), asc(accountEvents.id));
}

/** An order's events, oldest first: the timeline. */
export async function orderTimeline(db: DbOrTx, merchantId: number, paymentOrderId: number) {
  return db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.merchantId, merchantId), eq(orderEvents.paymentOrderId, paymentOrderId)))
    .orderBy(asc(orderEvents.sequence));
}
