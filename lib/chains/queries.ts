import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { RecheckWindow } from "./block-check";
import {
  chainCursors,
  paymentOrders,
  scannedTransfers,
  sweeps,
  transactions,
  type NewScannedTransfer,
  type PaymentOrder,
  type ScannedTransfer,
  type Sweep,
} from "@/lib/db/schema";
import { maxConfirmationThreshold } from "./confirmation-bounds";
import type { DbOrTx } from "@/lib/db/types";

// ─── chain cursors (how far each chain was scanned) ───

export async function findCursor(db: DbOrTx, blockchainId: number) {
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.blockchainId, blockchainId)).limit(1);
  return row ?? null;
}

export async function saveCursor(db: DbOrTx, values: { blockchainId: number; genesisHash: string; lastBlock: bigint; lastBlockHash: string; updatedAt: Date }) {
  await db
    .insert(chainCursors)
    .values(values)
    .onConflictDoUpdate({
      target: chainCursors.blockchainId,
      set: { genesisHash: values.genesisHash, lastBlock: values.lastBlock, lastBlockHash: values.lastBlockHash, updatedAt: values.updatedAt },
    });
}

/** Advances the cursor only if nobody else moved it meanwhile (two scanners: the loser's work is discarded). */
export async function advanceCursor(
  db: DbOrTx,
  blockchainId: number,
  expected: { lastBlock: bigint; genesisHash: string },
  next: { lastBlock: bigint; lastBlockHash: string; updatedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(chainCursors)
    .set(next)
    .where(and(eq(chainCursors.blockchainId, blockchainId), eq(chainCursors.lastBlock, expected.lastBlock), eq(chainCursors.genesisHash, expected.genesisHash)))
    .returning({ id: chainCursors.blockchainId });
  return rows.length === 1;
}

export async function deleteCursor(db: DbOrTx, blockchainId: number) {
  await db.delete(chainCursors).where(eq(chainCursors.blockchainId, blockchainId));
}

export async function touchCursor(db: DbOrTx, blockchainId: number, now: Date) {
  await db.update(chainCursors).set({ updatedAt: now }).where(eq(chainCursors.blockchainId, blockchainId));
}

/**
 * Until when the chain was seen, as expiry reads it: the cursor's time, or null while transfers the
 * scanner recorded still await attribution (a payment read before a deadline must reach its order
 * before the order is judged).
 */
export async function findCursorUpdatedAt(db: DbOrTx, blockchainId: number): Promise<Date | null> {
  const [row] = await db
    .select({ updatedAt: chainCursors.updatedAt })
    .from(chainCursors)
    .where(and(eq(chainCursors.blockchainId, blockchainId), sql`not exists (select 1 from ${scannedTransfers} s where s.blockchain_id = ${blockchainId})`))
    .limit(1);
  return row?.updatedAt ?? null;
}

// ─── scanned transfers (recorded by the scanner, attributed by the engine) ───

/** Records what a chunk's scan checked (inside its cursor's transaction); a rescan of the same transfer overwrites it. */
export async function recordScannedTransfers(db: DbOrTx, rows: NewScannedTransfer[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(scannedTransfers)
    .values(rows)
    .onConflictDoUpdate({
      target: [scannedTransfers.blockchainId, scannedTransfers.txHash, scannedTransfers.logIndex, scannedTransfers.toAddress],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        blockTimestamp: sql`excluded.block_timestamp`,
        gasUsed: sql`excluded.gas_used`,
        gasPrice: sql`excluded.gas_price`,
        reverted: sql`excluded.reverted`,
        scannedAt: sql`excluded.scanned_at`,
      },
    });
}

/** Whether any scanned transfer of the chain awaits attribution (one indexed probe: most ticks have none). */
export async function hasScannedTransfers(db: DbOrTx, blockchainId: number): Promise<boolean> {
  const [row] = await db
    .select({ blockNumber: scannedTransfers.blockNumber })
    .from(scannedTransfers)
    .where(eq(scannedTransfers.blockchainId, blockchainId))
    .limit(1);
  return row !== undefined;
}

/** The chain's scanned transfers awaiting attribution, in block order, locked until the transaction ends. */
export async function lockScannedTransfers(db: DbOrTx, blockchainId: number, limit: number): Promise<ScannedTransfer[]> {
  return db
    .select()
    .from(scannedTransfers)
    .where(eq(scannedTransfers.blockchainId, blockchainId))
    .orderBy(asc(scannedTransfers.blockNumber), asc(scannedTransfers.logIndex), asc(scannedTransfers.txHash))
    .limit(limit)
    .for("update");
}

/** Removes attributed transfers (the rows `lockScannedTransfers` returned). */
export async function deleteScannedTransfers(db: DbOrTx, rows: Pick<ScannedTransfer, "blockchainId" | "txHash" | "logIndex" | "toAddress">[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    await db
      .delete(scannedTransfers)
      .where(
        or(
          ...batch.map((r) =>
            and(
              eq(scannedTransfers.blockchainId, r.blockchainId),
              eq(scannedTransfers.txHash, r.txHash),
              eq(scannedTransfers.logIndex, r.logIndex),
              eq(scannedTransfers.toAddress, r.toAddress),
            ),
          ),
        ),
      );
  }
}

/** Forgets unattributed transfers above `block` (a reorg moved the cursor back there: the rescan reads what the chain holds now); every one when `block` is null (the chain was replaced). */
export async function forgetScannedTransfers(db: DbOrTx, blockchainId: number, block: bigint | null): Promise<void> {
  await db
    .delete(scannedTransfers)
    .where(and(eq(scannedTransfers.blockchainId, blockchainId), block === null ? undefined : gt(scannedTransfers.blockNumber, block)));
}

/** The scanner's last block per chain: what confirmations are counted against when serving an order. */
export async function findScannedHead(db: DbOrTx, blockchainId: number): Promise<bigint | null> {
  const [row] = await db.select({ lastBlock: chainCursors.lastBlock }).from(chainCursors).where(eq(chainCursors.blockchainId, blockchainId)).limit(1);
  return row?.lastBlock ?? null;
}

// ─── sweeps (deposits flushed to the merchant) ───

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

/**
 * Sweeps on a chain due now, with their order: pending ones whose time has come, and submitted
 * ones not updated since `submittedBefore` (their worker died mid-sweep).
 */
export async function findDueSweeps(db: DbOrTx, blockchainId: number, now: Date, submittedBefore: Date, limit = 20) {
  return db
    .select({ sweep: sweeps, order: paymentOrders })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(
      and(
        eq(sweeps.blockchainId, blockchainId),
        or(
          and(eq(sweeps.status, "pending"), lte(sweeps.nextAttemptAt, now)),
          // a worker that died mid-sweep: deployAndFlush is idempotent, so send it again
          and(eq(sweeps.status, "submitted"), lt(sweeps.updatedAt, submittedBefore)),
        ),
      ),
    )
    .orderBy(asc(sweeps.nextAttemptAt), asc(sweeps.id))
    .limit(limit);
}

/** When the first pending sweep on these chains falls due (null: none), so an idle sweeper can sleep until then. */
export async function nextSweepDueAt(db: DbOrTx, blockchainIds: number[]): Promise<Date | null> {
  if (blockchainIds.length === 0) return null;
  const [row] = await db
    .select({ at: sweeps.nextAttemptAt })
    .from(sweeps)
    .where(and(eq(sweeps.status, "pending"), inArray(sweeps.blockchainId, blockchainIds)))
    .orderBy(asc(sweeps.nextAttemptAt))
    .limit(1);
  return row?.at ?? null;
}

/** Puts a pending sweep off until `until` (its merchant's sweep budget is spent), without counting an attempt. */
export async function deferPendingSweep(db: DbOrTx, id: number, until: Date): Promise<void> {
  await db
    .update(sweeps)
    .set({ nextAttemptAt: until })
    .where(and(eq(sweeps.id, id), eq(sweeps.status, "pending")));
}

/** Claims a sweep for this worker (submitted, one more attempt) unless another worker changed it since it was read. */
export async function claimSweep(db: DbOrTx, sweep: Sweep, now: Date): Promise<Sweep | null> {
  const [claimed] = await db
    .update(sweeps)
    .set({ status: "submitted", attempts: sweep.attempts + 1, updatedAt: now })
    .where(and(eq(sweeps.id, sweep.id), eq(sweeps.status, sweep.status), eq(sweeps.updatedAt, sweep.updatedAt)))
    .returning();
  return claimed ?? null;
}

/** Records how a claimed sweep went (skipped, succeeded, failed or pending again). */
export async function updateSweep(db: DbOrTx, id: number, values: Partial<Omit<Sweep, "id">> & { updatedAt: Date }): Promise<void> {
  await db.update(sweeps).set(values).where(eq(sweeps.id, id));
}

/**
 * The hash of a sweep's transaction the moment the node took it, before its receipt is awaited: a
 * process killed meanwhile leaves the sweep `submitted` with the hash, which the next run looks up
 * (`findBroadcastSweeps`) instead of sending again into an empty deposit address.
 */
export async function noteSweepBroadcast(db: DbOrTx, ids: number[], txHash: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(sweeps)
    .set({ txHash })
    .where(and(inArray(sweeps.id, ids), eq(sweeps.status, "submitted")));
}

/** Submitted sweeps on a chain whose transaction was broadcast (its hash noted), with their orders. */
export async function findBroadcastSweeps(db: DbOrTx, blockchainId: number) {
  return db
    .select({ sweep: sweeps, order: paymentOrders })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(and(eq(sweeps.blockchainId, blockchainId), eq(sweeps.status, "submitted"), isNotNull(sweeps.txHash)));
}

/** A submitted sweep marked succeeded with its mined transaction; false when it was no longer submitted (settled elsewhere). */
export async function markSubmittedSweepSucceeded(
  db: DbOrTx,
  id: number,
  mined: { txHash: string; blockNumber: bigint; blockHash: string },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(sweeps)
    .set({ status: "succeeded", ...mined, lastError: null, updatedAt: now })
    .where(and(eq(sweeps.id, id), eq(sweeps.status, "submitted")))
    .returning({ id: sweeps.id });
  return rows.length === 1;
}

/**
 * Adds a sweep transaction's gas (this order's share of it) to the sweep's totals; `onChain`: the
 * share of the transaction now in tx_hash, which a reorg takes back off (requeueReorgedSweeps).
 */
export async function addSweepGas(db: DbOrTx, id: number, share: { gas: bigint; costWei: bigint }, onChain: boolean): Promise<void> {
  await db
    .update(sweeps)
    .set({
      gasUsed: sql`${sweeps.gasUsed} + ${share.gas.toString()}::bigint`,
      gasCostWei: sql`${sweeps.gasCostWei} + ${share.costWei.toString()}::numeric`,
      ...(onChain ? { lastGasUsed: share.gas, lastGasCostWei: share.costWei.toString() } : {}),
    })
    .where(eq(sweeps.id, id));
}

/** A reorged sweep transaction's gas share comes off the order's totals. */
const dropLastGas = {
  gasUsed: sql`${sweeps.gasUsed} - coalesce(${sweeps.lastGasUsed}, 0)`,
  gasCostWei: sql`${sweeps.gasCostWei} - coalesce(${sweeps.lastGasCostWei}, 0)`,
  lastGasUsed: null,
  lastGasCostWei: null,
};

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

/** Whether a sweep's block is still inside the re-check window below `head` (by its order's threshold). */
function sweepWithinWindow(head: bigint, window: RecheckWindow) {
  return sql`${sweeps.blockNumber} + greatest(${window.thresholdMultiple}::int * ${paymentOrders.confirmationThreshold}, ${window.minBlocks}::int) > ${head}::bigint`;
}

/** Of `hashes`, those of transactions that swept the merchant's orders (a batch shared with other merchants' orders included). */
export async function merchantSweepHashesAmong(db: DbOrTx, merchantId: number, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .select({ hash: sweeps.txHash })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(and(eq(paymentOrders.merchantId, merchantId), inArray(sweeps.txHash, hashes)));
  return new Set(rows.map((row) => row.hash!.toLowerCase()));
}

/**
 * The block below which nothing is re-checked: a window is at most `thresholdMultiple` × the
 * largest confirmation threshold a wallet may set (or `minBlocks`), and above `finalized` means
 * at most that far too. A constant bound, so the re-check reads a range of a (chain, block) index.
 */
export function recheckFloor(head: bigint, window: RecheckWindow, finalized: bigint): bigint {
  const widest = BigInt(Math.max(window.thresholdMultiple * maxConfirmationThreshold, window.minBlocks));
  const floor = head - widest;
  return finalized < floor ? finalized : floor;
}

/** Succeeded sweeps on a chain mined inside the re-check window or above its `finalized` block (lib/engine/reorg-recheck.ts). */
export async function findSweepsToRecheck(db: DbOrTx, blockchainId: number, head: bigint, window: RecheckWindow, finalized: bigint = head): Promise<Sweep[]> {
  const rows = await db
    .select({ sweep: sweeps })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(
      and(
        eq(sweeps.blockchainId, blockchainId),
        sql`${sweeps.status} = 'succeeded'`,
        isNotNull(sweeps.blockNumber),
        // The newest blocks only (sweeps_chain_block_idx): no window reaches further back than the largest threshold allows.
        gt(sweeps.blockNumber, recheckFloor(head, window, finalized)),
        or(sweepWithinWindow(head, window), gt(sweeps.blockNumber, finalized)),
      ),
    );
  return rows.map((row) => row.sweep);
}

const reorgedSweepNote = "Its transaction was reorged out of the chain; queued again.";

/**
 * Succeeded sweeps whose transaction a reorg took away go back to pending (the sweeper looks again:
 * it flushes what the deposit address holds now, or skips an empty one). Compare-and-set on the block hash.
 */
export async function requeueReorgedSweeps(db: DbOrTx, gone: Pick<Sweep, "id" | "blockHash">[], now: Date): Promise<number> {
  if (gone.length === 0) return 0;
  const rows = await db
    .update(sweeps)
    .set({
      status: "pending",
      txHash: null,
      blockNumber: null,
      blockHash: null,
      attempts: 0,
      lastError: reorgedSweepNote,
      nextAttemptAt: now,
      updatedAt: now,
      ...dropLastGas,
    })
    .where(and(eq(sweeps.status, "succeeded"), or(...gone.map((s) => and(eq(sweeps.id, s.id), eq(sweeps.blockHash, s.blockHash!))))))
    .returning({ id: sweeps.id });
  return rows.length;
}

/** The chain was replaced: succeeded sweeps mined inside the window below the last scanned block vanished with it. */
export async function requeueSweepsOnReset(db: DbOrTx, blockchainId: number, lastScanned: bigint, window: RecheckWindow, now: Date): Promise<number> {
  const inWindow = sql`${sweeps.blockNumber} + greatest(${window.thresholdMultiple}::int * (select o.confirmation_threshold from ${paymentOrders} o where o.id = ${sweeps.paymentOrderId}), ${window.minBlocks}::int) > ${lastScanned}::bigint`;
  const rows = await db
    .update(sweeps)
    .set({
      status: "pending",
      txHash: null,
      blockNumber: null,
      blockHash: null,
      attempts: 0,
      lastError: reorgedSweepNote,
      nextAttemptAt: now,
      updatedAt: now,
      ...dropLastGas,
    })
    .where(and(eq(sweeps.blockchainId, blockchainId), eq(sweeps.status, "succeeded"), isNotNull(sweeps.blockNumber), inWindow))
    .returning({ id: sweeps.id });
  return rows.length;
}

/**
 * Settled native orders whose deposit address still holds money for a sweep that has not
 * succeeded: money that reaches them by internal transfer is there to be seen before it is flushed.
 */
export async function findUnsweptSettledNativeOrders(db: DbOrTx, blockchainId: number, limit: number): Promise<PaymentOrder[]> {
  // Sweeps still to run are read by the due index's ranges (pending, submitted, failed, skipped), never the succeeded history.
  return db
    .select(getTableColumns(paymentOrders))
    .from(sweeps)
    .innerJoin(paymentOrders, eq(sweeps.paymentOrderId, paymentOrders.id))
    .where(
      and(
        eq(sweeps.blockchainId, blockchainId),
        sql`${sweeps.status} in ('pending', 'submitted', 'failed', 'skipped')`,
        eq(paymentOrders.blockchainId, blockchainId),
        inArray(paymentOrders.status, ["confirmed", "failed", "expired"]),
        isNull(paymentOrders.tokenAddress),
      ),
    )
    .orderBy(desc(sweeps.id))
    .limit(limit);
}

/**
 * What a pending order has received: the sum of its live transfers that count, written by whoever
 * records transfers (the scanner, the balance check) in the same transaction. The lifecycle finds
 * the pending orders it has to judge by this column (payment_orders_chain_in_flight_idx) instead
 * of looking for transfers of every open order each tick.
 */
export async function refreshPendingReceived(db: DbOrTx, orderIds: number[], now: Date): Promise<void> {
  await refreshReceived(db, orderIds, now, ["pending"]);
}

/**
 * `amount_received` of these orders (of `statuses`, default any) set to the sum of their live
 * transfers that count: after a reorg dropped some (a confirmed order taken back shows what still
 * counts, issue 50) or a rescan recorded one again.
 */
export async function refreshReceived(db: DbOrTx, orderIds: number[], now: Date, statuses?: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .update(paymentOrders)
    .set({
      amountReceived: sql`coalesce((select sum(t.amount) from ${transactions} t where t.payment_order_id = ${paymentOrders.id} and t.counted and t.status in ('pending', 'confirmed')), 0)`,
      updatedAt: now,
    })
    .where(and(inArray(paymentOrders.id, orderIds), statuses ? inArray(paymentOrders.status, statuses) : undefined));
}

/**
 * A batch of the merchant's succeeded sweeps (deposit address flushed to their wallet) whose last
 * update — when the sweep was recorded as mined — is in the range, with the order's references, in
 * (time, id) order after `after`: the accounting export (lib/dashboard/movements-csv.ts).
 */
export async function sweepMovementsBatch(
  db: DbOrTx,
  merchantId: number,
  range: { from: Date; to: Date },
  after: { at: Date; id: number } | null,
  limit: number,
) {
  return db
    .select({
      id: sweeps.id,
      at: sweeps.updatedAt,
      blockchainId: sweeps.blockchainId,
      txHash: sweeps.txHash,
      blockNumber: sweeps.blockNumber,
      status: sweeps.status,
      gasCostWei: sweeps.gasCostWei,
      order: {
        id: paymentOrders.id,
        orderId: paymentOrders.orderId,
        orderInfo: paymentOrders.orderInfo,
        currency: paymentOrders.currency,
        receivingAddress: paymentOrders.receivingAddress,
        depositDestination: paymentOrders.depositDestination,
        blockchainId: paymentOrders.blockchainId,
        tokenAddress: paymentOrders.tokenAddress,
        decimals: paymentOrders.decimals,
        priceAmount: paymentOrders.priceAmount,
        priceCurrency: paymentOrders.priceCurrency,
        rate: paymentOrders.rate,
        rateSource: paymentOrders.rateSource,
      },
    })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(
      and(
        eq(paymentOrders.merchantId, merchantId),
        eq(sweeps.status, "succeeded"),
        gte(sweeps.updatedAt, range.from),
        lt(sweeps.updatedAt, range.to),
        after ? or(gt(sweeps.updatedAt, after.at), and(eq(sweeps.updatedAt, after.at), gt(sweeps.id, after.id))) : undefined,
      ),
    )
    .orderBy(asc(sweeps.updatedAt), asc(sweeps.id))
    .limit(limit);
}

/**
 * The highest block holding a transfer still on record (not dropped) to each of these orders: a
 * sweep of the order's deposit waits until that block is `safe` (lib/chains/sweeper.ts).
 */
export async function highestTransferBlocks(db: DbOrTx, paymentOrderIds: number[]): Promise<Map<number, bigint>> {
  if (paymentOrderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: transactions.paymentOrderId, block: sql<string>`max(${transactions.blockNumber})` })
    .from(transactions)
    .where(and(inArray(transactions.paymentOrderId, paymentOrderIds), ne(transactions.status, "dropped")))
    .groupBy(transactions.paymentOrderId);
  return new Map(rows.map((row) => [row.orderId!, BigInt(row.block)]));
}
