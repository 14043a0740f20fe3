import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { paymentOrders, refunds, type NewRefund, type Refund } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** What the order's refunds already take: requested, pending and confirmed (a failed refund frees its amount). */
export async function sumOpenRefunds(db: DbOrTx, paymentOrderId: number): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amount}), 0)::text` })
    .from(refunds)
    .where(and(eq(refunds.paymentOrderId, paymentOrderId), inArray(refunds.status, ["requested", "pending", "confirmed"])));
  return BigInt(row?.total ?? "0");
}

export async function insertRefund(db: DbOrTx, values: NewRefund): Promise<Refund> {
  const [row] = await db.insert(refunds).values(values).returning();
  return row!;
}

/** An order's refunds, oldest first. */
export async function listOrderRefunds(db: DbOrTx, paymentOrderId: number): Promise<Refund[]> {
  return db.select().from(refunds).where(eq(refunds.paymentOrderId, paymentOrderId)).orderBy(asc(refunds.id));
}

/** Refunds on a chain still waiting for their transfer, sent to any of `addresses` (one indexed query per scanned range). */
export async function findRequestedRefundsTo(db: DbOrTx, blockchainId: number, addresses: string[]): Promise<Refund[]> {
  if (addresses.length === 0) return [];
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.blockchainId, blockchainId), eq(refunds.status, "requested"), inArray(refunds.toAddress, addresses)))
    .orderBy(asc(refunds.id));
}

/** Whether a refund in the chain's native coin is awaited (the merchant sends it to the customer's address: only a block's transactions show it). */
export async function hasRequestedNativeRefunds(db: DbOrTx, blockchainId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.blockchainId, blockchainId), eq(refunds.status, "requested"), isNull(refunds.tokenAddress)))
    .limit(1);
  return row !== undefined;
}

/**
 * A refund's transfer was seen: pending (or failed when it reverted), with where it is. Only from
 * `requested`, and never with a transfer another refund already holds (a rescan after a reorg
 * sees old transfers again): one transfer settles one refund.
 */
export async function markRefundSeen(
  db: DbOrTx,
  id: number,
  values: { status: "pending" | "failed"; txHash: string; logIndex: number; blockNumber: bigint; blockHash: string; updatedAt: Date },
): Promise<Refund | null> {
  const [row] = await db
    .update(refunds)
    .set(values)
    .where(
      and(
        eq(refunds.id, id),
        eq(refunds.status, "requested"),
        sql`not exists (select 1 from ${refunds} r2 where r2.blockchain_id = ${refunds.blockchainId} and r2.tx_hash = ${values.txHash} and r2.log_index = ${values.logIndex})`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Refunds on a chain seen on chain and waiting for confirmations, with their order's threshold. */
export async function findPendingRefunds(db: DbOrTx, blockchainId: number) {
  return db
    .select({ refund: refunds, order: paymentOrders })
    .from(refunds)
    .innerJoin(paymentOrders, eq(paymentOrders.id, refunds.paymentOrderId))
    .where(and(eq(refunds.blockchainId, blockchainId), eq(refunds.status, "pending")));
}

/** pending → confirmed; null when another worker got there first. */
export async function confirmRefund(db: DbOrTx, id: number, now: Date): Promise<Refund | null> {
  const [row] = await db
    .update(refunds)
    .set({ status: "confirmed", confirmedAt: now, updatedAt: now })
    .where(and(eq(refunds.id, id), eq(refunds.status, "pending")))
    .returning();
  return row ?? null;
}

/** pending → requested: its transfer's block was reorged away; the refund waits for a transfer again. */
export async function reopenRefund(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(refunds)
    .set({ status: "requested", txHash: null, logIndex: null, blockNumber: null, blockHash: null, updatedAt: now })
    .where(and(eq(refunds.id, id), eq(refunds.status, "pending")));
}

/**
 * A batch of the merchant's refunds sent on chain (a transaction hash on record) whose time — when
 * confirmed, else when last updated — is in the range, with their order's references and locked
 * price, in (time, id) order after `after`: the accounting export (lib/dashboard/movements-csv.ts).
 */
export async function refundMovementsBatch(
  db: DbOrTx,
  merchantId: number,
  range: { from: Date; to: Date },
  after: { at: Date; id: number } | null,
  limit: number,
) {
  const at = sql<Date>`coalesce(${refunds.confirmedAt}, ${refunds.updatedAt})`.mapWith(refunds.updatedAt);
  return db
    .select({
      id: refunds.id,
      at,
      blockchainId: refunds.blockchainId,
      txHash: refunds.txHash,
      logIndex: refunds.logIndex,
      blockNumber: refunds.blockNumber,
      fromAddress: refunds.fromAddress,
      toAddress: refunds.toAddress,
      currency: refunds.currency,
      amount: refunds.amount,
      status: refunds.status,
      tokenAddress: refunds.tokenAddress,
      order: {
        id: paymentOrders.id,
        orderId: paymentOrders.orderId,
        orderInfo: paymentOrders.orderInfo,
        blockchainId: paymentOrders.blockchainId,
        tokenAddress: paymentOrders.tokenAddress,
        decimals: paymentOrders.decimals,
        priceAmount: paymentOrders.priceAmount,
        priceCurrency: paymentOrders.priceCurrency,
        rate: paymentOrders.rate,
        rateSource: paymentOrders.rateSource,
      },
    })
    .from(refunds)
    .innerJoin(paymentOrders, eq(paymentOrders.id, refunds.paymentOrderId))
    .where(
      and(
        eq(refunds.merchantId, merchantId),
        isNotNull(refunds.txHash),
        gte(at, sql.param(range.from, refunds.updatedAt)),
        lt(at, sql.param(range.to, refunds.updatedAt)),
        after ? or(gt(at, sql.param(after.at, refunds.updatedAt)), and(eq(at, sql.param(after.at, refunds.updatedAt)), gt(refunds.id, after.id))) : undefined,
      ),
    )
    .orderBy(asc(at), asc(refunds.id))
    .limit(limit);
}
