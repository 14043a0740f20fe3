import { and, desc, eq, gt, inArray, lte, ne, or, sql } from "drizzle-orm";
import { chainCursors, paymentOrders, sweeps, transactions, type PaymentOrder, type Transaction } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** Transfers on a chain still waiting for confirmations (their block hashes need re-checking). */
export async function findUnconfirmedTransfers(db: DbOrTx, blockchainId: number) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.blockchainId, blockchainId), eq(transactions.status, "pending")));
}

export async function setTransferStatus(db: DbOrTx, ids: number[], status: string, updatedAt: Date) {
  if (ids.length === 0) return;
  await db.update(transactions).set({ status, updatedAt }).where(inArray(transactions.id, ids));
}

/** Orders on a chain the lifecycle must look at: open ones, and expired ones that received their asset after expiry. */
export async function findOrdersToEvaluate(db: DbOrTx, blockchainId: number, now: Date) {
  const withTransfers = sql`exists (select 1 from ${transactions} t where t.payment_order_id = ${paymentOrders.id} and t.status <> 'dropped')`;
  const withLatePayment = sql`exists (select 1 from ${transactions} t where t.payment_order_id = ${paymentOrders.id} and t.status in ('pending', 'confirmed') and not t.counted and t.token_address is not distinct from ${paymentOrders.tokenAddress})`;
  return db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.blockchainId, blockchainId),
        // processing orders always (a reorg may have taken their transfers), pending ones with money or past their deadline
        or(
          eq(paymentOrders.status, "processing"),
          and(eq(paymentOrders.status, "pending"), or(withTransfers, gt(paymentOrders.amountReceived, "0"), lte(paymentOrders.expiresAt, now))),
          and(eq(paymentOrders.status, "expired"), withLatePayment),
        ),
      ),
    );
}

export async function findOrderTransfers(db: DbOrTx, paymentOrderIds: number[]) {
  if (paymentOrderIds.length === 0) return [];
  return db
    .select()
    .from(transactions)
    .where(and(inArray(transactions.paymentOrderId, paymentOrderIds), ne(transactions.status, "dropped")))
    .orderBy(transactions.blockNumber, transactions.logIndex);
}

/** Moves an order from `from` to its next state; false if another worker got there first (idempotent transitions). */
export async function transitionOrder(db: DbOrTx, id: number, from: string, values: Partial<PaymentOrder> & { updatedAt: Date }) {
  const [row] = await db
    .update(paymentOrders)
    .set(values)
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, from)))
    .returning();
  return row ?? null;
}

/**
 * Transfers on a chain that now have the confirmations their order asks for become confirmed,
 * whether or not they completed the order (spec › Transaction status).
 */
export async function confirmDeepTransfers(db: DbOrTx, blockchainId: number, head: bigint, now: Date) {
  await db
    .update(transactions)
    .set({ status: "confirmed", updatedAt: now })
    .where(
      and(
        eq(transactions.blockchainId, blockchainId),
        eq(transactions.status, "pending"),
        sql`${head}::bigint - ${transactions.blockNumber} + 1 >= (select o.confirmation_threshold from ${paymentOrders} o where o.id = ${transactions.paymentOrderId})`,
      ),
    );
}

/**
 * Queues a sweep of an order's deposit address. A sweep that already ran (or gave up, or was skipped) is queued
 * again: this is called when money arrived after it, and a flush of an empty forwarder is harmless.
 */
export async function armSweep(db: DbOrTx, paymentOrderId: number, blockchainId: number, now: Date): Promise<{ status: "pending"; transaction_hash: null }> {
  await db
    .insert(sweeps)
    .values({ paymentOrderId, blockchainId, status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: sweeps.paymentOrderId,
      set: { status: "pending", attempts: 0, lastError: null, nextAttemptAt: now, updatedAt: now },
      setWhere: inArray(sweeps.status, ["succeeded", "failed", "skipped"]),
    });
  return { status: "pending", transaction_hash: null };
}

/** The sweep of an order's deposit address, if one was queued. */
export async function findOrderSweep(db: DbOrTx, paymentOrderId: number) {
  const [row] = await db.select().from(sweeps).where(eq(sweeps.paymentOrderId, paymentOrderId)).limit(1);
  return row ?? null;
}

/** The scanner's last block per chain: what confirmations are counted against when serving an order. */
export async function findScannedHead(db: DbOrTx, blockchainId: number): Promise<bigint | null> {
  const [row] = await db.select({ lastBlock: chainCursors.lastBlock }).from(chainCursors).where(eq(chainCursors.blockchainId, blockchainId)).limit(1);
  return row?.lastBlock ?? null;
}

/** The transfer an order response shows: the latest that counts toward it (transfers that do not count never show there). */
export async function findLatestOrderTransfer(db: DbOrTx, paymentOrderId: number): Promise<Transaction | null> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.paymentOrderId, paymentOrderId), eq(transactions.counted, true), inArray(transactions.status, ["pending", "confirmed"])))
    .orderBy(desc(transactions.blockNumber), desc(transactions.logIndex))
    .limit(1);
  return row ?? null;
}

/** Devnet restart: transfers of unconfirmed orders vanished with the chain. */
export async function dropTransfersOfOpenOrders(db: DbOrTx, blockchainId: number, now: Date) {
  return db
    .update(transactions)
    .set({ status: "dropped", updatedAt: now })
    .where(
      and(
        eq(transactions.blockchainId, blockchainId),
        ne(transactions.status, "dropped"),
        ne(transactions.status, "confirmed"),
      ),
    )
    .returning({ id: transactions.id, paymentOrderId: transactions.paymentOrderId });
}

export async function deleteCursor(db: DbOrTx, blockchainId: number) {
  await db.delete(chainCursors).where(eq(chainCursors.blockchainId, blockchainId));
}

export async function touchCursor(db: DbOrTx, blockchainId: number, now: Date) {
  await db.update(chainCursors).set({ updatedAt: now }).where(eq(chainCursors.blockchainId, blockchainId));
}

export async function findCursorUpdatedAt(db: DbOrTx, blockchainId: number): Promise<Date | null> {
  const [row] = await db.select({ updatedAt: chainCursors.updatedAt }).from(chainCursors).where(eq(chainCursors.blockchainId, blockchainId)).limit(1);
  return row?.updatedAt ?? null;
}


export interface TransactionFilters {
  blockchainId?: number;
  /** API status; "failed" also matches transfers dropped by a reorg. */
  status?: "pending" | "confirmed" | "failed";
}

function transactionWhere(merchantId: number, filters: TransactionFilters) {
  return and(
    eq(transactions.merchantId, merchantId),
    filters.blockchainId !== undefined ? eq(transactions.blockchainId, filters.blockchainId) : undefined,
    filters.status === "failed"
      ? inArray(transactions.status, ["failed", "dropped"])
      : filters.status !== undefined
        ? eq(transactions.status, filters.status)
        : undefined,
  );
}

export async function listMerchantTransactions(db: DbOrTx, merchantId: number, filters: TransactionFilters, window: { limit: number; offset: number }) {
  const where = transactionWhere(merchantId, filters);
  const [rows, [total]] = await Promise.all([
    db.select().from(transactions).where(where).orderBy(desc(transactions.createdAt), desc(transactions.id)).limit(window.limit).offset(window.offset),
    db.select({ value: sql<number>`count(*)::int` }).from(transactions).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

/** A merchant's transfer by transaction hash (case-insensitive), with its order; the first log of the transaction when it has several. */
export async function findMerchantTransaction(db: DbOrTx, merchantId: number, txHash: string) {
  const [row] = await db
    .select({ transfer: transactions, order: paymentOrders })
    .from(transactions)
    .leftJoin(paymentOrders, eq(paymentOrders.id, transactions.paymentOrderId))
    .where(and(eq(transactions.merchantId, merchantId), eq(transactions.txHash, txHash.toLowerCase())))
    .orderBy(transactions.logIndex)
    .limit(1);
  return row ?? null;
}

