import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { paymentOrders, type NewPaymentOrder, type PaymentOrder } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import type { OrderingField } from "./schemas";

export async function insertOrder(db: DbOrTx, values: NewPaymentOrder): Promise<PaymentOrder> {
  const [row] = await db.insert(paymentOrders).values(values).returning();
  return row!;
}

export async function nonceUsed(db: DbOrTx, merchantId: number, nonce: number): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchantId), eq(paymentOrders.nonce, nonce)))
    .limit(1);
  return row !== undefined;
}

/** One of the merchant's orders by public order id or by numeric id. */
export async function findMerchantOrder(db: DbOrTx, merchantId: number, key: { orderId: string } | { id: number }): Promise<PaymentOrder | null> {
  const match = "orderId" in key ? eq(paymentOrders.orderId, key.orderId) : eq(paymentOrders.id, key.id);
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchantId), match))
    .limit(1);
  return row ?? null;
}

/** An order by its public id, whoever owns it (the public payment page and QR code). */
export async function findOrderByPublicId(db: DbOrTx, orderId: string): Promise<PaymentOrder | null> {
  const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.orderId, orderId)).limit(1);
  return row ?? null;
}

export interface OrderFilters {
  status?: string;
  blockchainId?: number;
  /** Matched case-insensitively. */
  currency?: string;
}

/**
 * Amounts compare by value, not by base units: 1 USDC (10^6 units) is more than 0.001 ETH
 * (10^15 units). Scaling every amount to 36 decimals keeps the comparison exact.
 */
const amountValue = sql`(${paymentOrders.amount} * power(10::numeric, 36 - ${paymentOrders.decimals}))`;

const sortColumns: Record<OrderingField, SQL | typeof paymentOrders.createdAt | typeof paymentOrders.status> = {
  created_at: paymentOrders.createdAt,
  amount: amountValue,
  status: paymentOrders.status,
};

/** One page of a merchant's orders and the total matching the filters. Ties break by id in the same direction, so pages are stable. */
export async function listOrders(
  db: DbOrTx,
  merchantId: number,
  filters: OrderFilters,
  ordering: { field: OrderingField; descending: boolean },
  window: { limit: number; offset: number },
) {
  const where = and(
    eq(paymentOrders.merchantId, merchantId),
    filters.status !== undefined ? eq(paymentOrders.status, filters.status) : undefined,
    filters.blockchainId !== undefined ? eq(paymentOrders.blockchainId, filters.blockchainId) : undefined,
    filters.currency !== undefined ? sql`lower(${paymentOrders.currency}) = lower(${filters.currency})` : undefined,
  );
  const direction = ordering.descending ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(paymentOrders)
      .where(where)
      .orderBy(direction(sortColumns[ordering.field]), direction(paymentOrders.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(paymentOrders).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}
