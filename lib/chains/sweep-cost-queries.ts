import "server-only";
import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { paymentOrders, sweeps } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** What sweeping one order cost the gateway (issue 30 item 4): its share of each batch still on chain. */
export interface OrderSweepGas {
  orderId: string;
  blockchainId: number;
  gasUsed: bigint;
  /** In the chain's native coin's base units (wei). */
  gasCostWei: bigint;
  /** The transaction of its last sweep (null: none on chain now). */
  txHash: string | null;
  sweptAt: Date | null;
}

/**
 * Sweep gas per order of one merchant, orders that cost something only, oldest order first;
 * optionally only orders created in [from, to). For the order view, the overview's monthly total
 * and the accounting export.
 */
export async function sweepGasByOrder(db: DbOrTx, merchantId: number, range: { from?: Date; to?: Date } = {}): Promise<OrderSweepGas[]> {
  const rows = await db
    .select({
      orderId: paymentOrders.orderId,
      blockchainId: paymentOrders.blockchainId,
      gasUsed: sweeps.gasUsed,
      gasCostWei: sweeps.gasCostWei,
      txHash: sweeps.txHash,
      status: sweeps.status,
      updatedAt: sweeps.updatedAt,
    })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(
      and(
        eq(paymentOrders.merchantId, merchantId),
        gt(sweeps.gasUsed, 0n),
        range.from ? gte(paymentOrders.createdAt, range.from) : undefined,
        range.to ? lt(paymentOrders.createdAt, range.to) : undefined,
      ),
    )
    .orderBy(asc(paymentOrders.createdAt), asc(paymentOrders.id));
  return rows.map((row) => ({
    orderId: row.orderId,
    blockchainId: row.blockchainId,
    gasUsed: row.gasUsed,
    gasCostWei: BigInt(row.gasCostWei),
    txHash: row.txHash,
    sweptAt: row.status === "succeeded" ? row.updatedAt : null,
  }));
}

/** One order's sweep gas (null: never swept at any cost). Scoped to its merchant. */
export async function orderSweepGas(db: DbOrTx, merchantId: number, paymentOrderId: number): Promise<{ gasUsed: bigint; gasCostWei: bigint } | null> {
  const [row] = await db
    .select({ gasUsed: sweeps.gasUsed, gasCostWei: sweeps.gasCostWei })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(and(eq(sweeps.paymentOrderId, paymentOrderId), eq(paymentOrders.merchantId, merchantId)))
    .limit(1);
  return row ? { gasUsed: row.gasUsed, gasCostWei: BigInt(row.gasCostWei) } : null;
}

/**
 * The merchant's sweep gas per chain for sweeps last changed in [from, to) (the overview's month).
 * By the sweep's last update, which for a succeeded sweep is when it was swept.
 */
export async function sweepGasTotals(
  db: DbOrTx,
  merchantId: number,
  from: Date,
  to: Date,
): Promise<Array<{ blockchainId: number; orders: number; gasUsed: bigint; gasCostWei: bigint }>> {
  const rows = await db
    .select({
      blockchainId: paymentOrders.blockchainId,
      orders: sql<number>`count(*)::int`,
      gasUsed: sql<string>`coalesce(sum(${sweeps.gasUsed}), 0)::text`,
      gasCostWei: sql<string>`coalesce(sum(${sweeps.gasCostWei}), 0)::text`,
    })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(and(eq(paymentOrders.merchantId, merchantId), gt(sweeps.gasUsed, 0n), gte(sweeps.updatedAt, from), lt(sweeps.updatedAt, to)))
    .groupBy(paymentOrders.blockchainId)
    .orderBy(asc(paymentOrders.blockchainId));
  return rows.map((row) => ({ blockchainId: row.blockchainId, orders: Number(row.orders), gasUsed: BigInt(row.gasUsed), gasCostWei: BigInt(row.gasCostWei) }));
}

/** The calendar month (UTC) holding `at`: [from, to) and a label such as "November 2026". */
export function monthOf(at: Date): { from: Date; to: Date; label: string } {
  const from = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const to = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { from, to, label: from.toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" }) };
}
