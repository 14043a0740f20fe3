import { and, asc, count, desc, eq, gt, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import {
  apiKeys,
  merchantWallets,
  orderEvents,
  paymentOrders,
  rateLimitCounters,
  sweeps,
  transactions,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** Dashboard-only reads. Every function takes the merchant id and filters by it. */

export interface DailyBucket {
  day: string;
  blockchainId: number;
  currency: string;
  decimals: number;
  status: string;
  orders: number;
  /** Sum of order amounts, base units as a decimal string. */
  amount: string;
}

/** Orders created since `since`, counted and summed per UTC day, token and status. */
export async function dailyOrderBuckets(db: DbOrTx, merchantId: number, since: Date): Promise<DailyBucket[]> {
  const day = sql<string>`to_char(${paymentOrders.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      blockchainId: paymentOrders.blockchainId,
      currency: paymentOrders.currency,
      decimals: paymentOrders.decimals,
      status: paymentOrders.status,
      orders: sql<number>`count(*)::int`,
      amount: sql<string>`sum(${paymentOrders.amount})::text`,
    })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchantId), gte(paymentOrders.createdAt, since)))
    .groupBy(day, paymentOrders.blockchainId, paymentOrders.currency, paymentOrders.decimals, paymentOrders.status);
  return rows.map((r) => ({ ...r, orders: Number(r.orders), amount: String(r.amount ?? "0") }));
}

export async function recentOrders(db: DbOrTx, merchantId: number, limit: number) {
  return db.select().from(paymentOrders).where(eq(paymentOrders.merchantId, merchantId)).orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id)).limit(limit);
}

/** What the setup checklist needs to know, in one round trip each. */
export async function setupFacts(db: DbOrTx, merchantId: number) {
  const [[wallets], [keys], [endpoints], [paid]] = await Promise.all([
    db.select({ value: count() }).from(merchantWallets).where(eq(merchantWallets.merchantId, merchantId)),
    db.select({ value: count() }).from(apiKeys).where(eq(apiKeys.merchantId, merchantId)),
    db.select({ value: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, merchantId)),
    db
      .select({ value: count() })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.merchantId, merchantId), inArray(paymentOrders.status, ["processing", "confirmed"]))),
  ]);
  return {
    walletConfigured: (wallets?.value ?? 0) > 0,
    apiKeyCreated: (keys?.value ?? 0) > 0,
    webhookEndpointAdded: (endpoints?.value ?? 0) > 0,
    firstTestPayment: (paid?.value ?? 0) > 0,
  };
}

export interface OrderSearch {
  /** Matches the public order id or receiving address (substring), or the nonce (exact). */
  q?: string;
  status?: string;
  blockchainId?: number;
  currency?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/** `%`, `_` and `\` in user text match themselves in a LIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function orderSearchWhere(merchantId: number, search: OrderSearch): SQL | undefined {
  const q = search.q?.trim();
  return and(
    eq(paymentOrders.merchantId, merchantId),
    q
      ? or(
          sql`${paymentOrders.orderId} ilike ${likePattern(q)}`,
          sql`${paymentOrders.receivingAddress} ilike ${likePattern(q)}`,
          /^\d{1,15}$/.test(q) ? eq(paymentOrders.nonce, Number(q)) : undefined,
        )
      : undefined,
    search.status ? eq(paymentOrders.status, search.status) : undefined,
    search.blockchainId !== undefined ? eq(paymentOrders.blockchainId, search.blockchainId) : undefined,
    search.currency ? sql`lower(${paymentOrders.currency}) = lower(${search.currency})` : undefined,
    search.from ? gte(paymentOrders.createdAt, search.from) : undefined,
    search.to ? lt(paymentOrders.createdAt, search.to) : undefined,
  );
}

export async function searchOrders(db: DbOrTx, merchantId: number, search: OrderSearch, window: { limit: number; offset: number }) {
  const where = orderSearchWhere(merchantId, search);
  const [rows, [total]] = await Promise.all([
    db.select().from(paymentOrders).where(where).orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id)).limit(window.limit).offset(window.offset),
    db.select({ value: count() }).from(paymentOrders).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

/**
 * One batch of the CSV export, oldest first, after the keyset cursor (created_at, id): batches
 * stay cheap however deep the export goes, and rows created meanwhile cannot shift it.
 */
export async function exportOrdersBatch(
  db: DbOrTx,
  merchantId: number,
  range: { from: Date; to: Date },
  after: { createdAt: Date; id: number } | null,
  limit: number,
) {
  return db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.merchantId, merchantId),
        gte(paymentOrders.createdAt, range.from),
        lt(paymentOrders.createdAt, range.to),
        after
          ? or(gt(paymentOrders.createdAt, after.createdAt), and(eq(paymentOrders.createdAt, after.createdAt), gt(paymentOrders.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(asc(paymentOrders.createdAt), asc(paymentOrders.id))
    .limit(limit);
}

/** An order's events, oldest first: the timeline. */
export async function orderTimeline(db: DbOrTx, merchantId: number, paymentOrderId: number) {
  return db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.merchantId, merchantId), eq(orderEvents.paymentOrderId, paymentOrderId)))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
}

/** Every transfer seen for an order, dropped ones included (the detail page shows what happened). */
export async function orderTransfers(db: DbOrTx, merchantId: number, paymentOrderId: number) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.merchantId, merchantId), eq(transactions.paymentOrderId, paymentOrderId)))
    .orderBy(asc(transactions.blockNumber), asc(transactions.logIndex));
}

/** Webhook deliveries of an order's events (endpoints and the order's webhook_url), newest first, with their attempts. */
export async function orderDeliveries(db: DbOrTx, merchantId: number, paymentOrderId: number) {
  const deliveries = await db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(orderEvents, eq(orderEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(orderEvents.paymentOrderId, paymentOrderId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  const rows = deliveries.map((d) => d.delivery);
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id)))
          .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
  return { rows, attempts };
}

/** Sweeps of the merchant's orders not yet done, with the order (for a manual flush). */
export async function openSweeps(db: DbOrTx, merchantId: number) {
  return db
    .select({ sweep: sweeps, order: paymentOrders })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(and(eq(paymentOrders.merchantId, merchantId), ne(sweeps.status, "succeeded")))
    .orderBy(desc(sweeps.createdAt))
    .limit(100);
}

/** Requests counted in the merchant's current rate-limit window (counted by lib/auth/queries.ts `findApiKeyAndCount` / `findTokenMerchantAndCount`). */
export async function rateLimitUsage(db: DbOrTx, merchantId: number, windowStart: Date): Promise<number> {
  const [row] = await db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.key, `merchant:${merchantId}`), eq(rateLimitCounters.windowStart, windowStart)))
    .limit(1);
  return row?.count ?? 0;
}
