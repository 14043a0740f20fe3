import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import {
  payoutBatches,
  payoutClaims,
  payoutLegs,
  payoutSettings,
  type NewPayoutBatch,
  type NewPayoutLeg,
  type PayoutBatch,
  type PayoutClaim,
  type PayoutLeg,
} from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function insertPayoutBatch(db: DbOrTx, values: NewPayoutBatch): Promise<PayoutBatch> {
  const [row] = await db.insert(payoutBatches).values(values).returning();
  return row!;
}

export async function insertPayoutLegs(db: DbOrTx, values: NewPayoutLeg[]): Promise<PayoutLeg[]> {
  if (values.length === 0) return [];
  return db.insert(payoutLegs).values(values).returning();
}

export async function deletePayoutLegs(db: DbOrTx, batchId: number): Promise<void> {
  await db.delete(payoutLegs).where(eq(payoutLegs.batchId, batchId));
}

/** One of the merchant's batches, locked for the transaction when `lock`. */
export async function findMerchantPayout(db: DbOrTx, merchantId: number, id: number, lock = false): Promise<PayoutBatch | null> {
  const query = db
    .select()
    .from(payoutBatches)
    .where(and(eq(payoutBatches.merchantId, merchantId), eq(payoutBatches.id, id)));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

export async function listPayoutLegs(db: DbOrTx, batchId: number): Promise<PayoutLeg[]> {
  return db.select().from(payoutLegs).where(eq(payoutLegs.batchId, batchId)).orderBy(asc(payoutLegs.position));
}

/** The merchant's batches, newest first. */
export async function listMerchantPayouts(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    db.select().from(payoutBatches).where(eq(payoutBatches.merchantId, merchantId)).orderBy(desc(payoutBatches.id)).limit(window.limit).offset(window.offset),
    db.select({ n: count() }).from(payoutBatches).where(eq(payoutBatches.merchantId, merchantId)),
  ]);
  return { rows, count: total?.n ?? 0 };
}

export async function updatePayoutBatch(db: DbOrTx, id: number, values: Partial<NewPayoutBatch>): Promise<PayoutBatch> {
  const [row] = await db.update(payoutBatches).set(values).where(eq(payoutBatches.id, id)).returning();
  return row!;
}

/** Sets every leg of a batch (or only those with `from` status) to `values`. */
export async function updateBatchLegs(db: DbOrTx, batchId: number, values: Partial<NewPayoutLeg>, from?: string): Promise<void> {
  await db
    .update(payoutLegs)
    .set(values)
    .where(and(eq(payoutLegs.batchId, batchId), from ? eq(payoutLegs.status, from) : undefined));
}

export async function updatePayoutLeg(db: DbOrTx, batchId: number, position: number, values: Partial<NewPayoutLeg>): Promise<void> {
  await db
    .update(payoutLegs)
    .set(values)
    .where(and(eq(payoutLegs.batchId, batchId), eq(payoutLegs.position, position)));
}

/** Batches on a chain with a transaction reported and not yet settled. */
export async function findSentPayouts(db: DbOrTx, blockchainId: number): Promise<PayoutBatch[]> {
  return db
    .select()
    .from(payoutBatches)
    .where(and(eq(payoutBatches.blockchainId, blockchainId), eq(payoutBatches.status, "sent")))
    .orderBy(asc(payoutBatches.id));
}

/** Whether another batch on the chain already holds this transaction. */
export async function isPayoutTransactionTaken(db: DbOrTx, blockchainId: number, txHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payoutBatches.id })
    .from(payoutBatches)
    .where(and(eq(payoutBatches.blockchainId, blockchainId), sql`lower(${payoutBatches.txHash}) = lower(${txHash})`))
    .limit(1);
  return row !== undefined;
}

export async function findPayoutThreshold(db: DbOrTx, merchantId: number): Promise<string | null> {
  const [row] = await db.select({ threshold: payoutSettings.approvalThresholdUsd }).from(payoutSettings).where(eq(payoutSettings.merchantId, merchantId));
  return row?.threshold ?? null;
}

export async function upsertPayoutThreshold(db: DbOrTx, merchantId: number, threshold: string | null, now: Date): Promise<void> {
  await db
    .insert(payoutSettings)
    .values({ merchantId, approvalThresholdUsd: threshold, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: payoutSettings.merchantId, set: { approvalThresholdUsd: threshold, updatedAt: now } });
}

/**
 * A batch of the merchant's payout legs whose transaction was mined (a block on record), with their
 * batch, whose time (the batch's confirmation, else its last update) is in the range, in (time, leg
 * id) order after `after`: the accounting export (lib/dashboard/movements-csv.ts).
 */
export async function payoutMovementsBatch(
  db: DbOrTx,
  merchantId: number,
  range: { from: Date; to: Date },
  after: { at: Date; id: number } | null,
  limit: number,
) {
  const at = sql<Date>`coalesce(${payoutBatches.confirmedAt}, ${payoutBatches.updatedAt})`.mapWith(payoutBatches.updatedAt);
  return db
    .select({ id: payoutLegs.id, at, leg: payoutLegs, batch: payoutBatches })
    .from(payoutLegs)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutLegs.batchId))
    .where(
      and(
        eq(payoutLegs.merchantId, merchantId),
        isNotNull(payoutBatches.blockNumber),
        gte(at, sql.param(range.from, payoutBatches.updatedAt)),
        lt(at, sql.param(range.to, payoutBatches.updatedAt)),
        after
          ? or(gt(at, sql.param(after.at, payoutBatches.updatedAt)), and(eq(at, sql.param(after.at, payoutBatches.updatedAt)), gt(payoutLegs.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(asc(at), asc(payoutLegs.id))
    .limit(limit);
}

export async function insertPayoutClaim(db: DbOrTx, values: typeof payoutClaims.$inferInsert): Promise<PayoutClaim> {
  const [row] = await db.insert(payoutClaims).values(values).returning();
  return row!;
}

export async function findPayoutClaim(db: DbOrTx, id: string): Promise<PayoutClaim | null> {
  const [row] = await db.select().from(payoutClaims).where(eq(payoutClaims.id, id));
  return row ?? null;
}

export async function listMerchantClaims(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payoutClaims)
      .where(eq(payoutClaims.merchantId, merchantId))
      .orderBy(desc(payoutClaims.createdAt), desc(payoutClaims.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(payoutClaims).where(eq(payoutClaims.merchantId, merchantId)),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** open → claimed with the recipient's address, only while open and unexpired: one claim per link. */
export async function markClaimed(db: DbOrTx, id: string, address: string, now: Date): Promise<PayoutClaim | null> {
  const [row] = await db
    .update(payoutClaims)
    .set({ status: "claimed", claimAddress: address, claimedAt: now, updatedAt: now })
    .where(and(eq(payoutClaims.id, id), eq(payoutClaims.status, "open"), isNull(payoutClaims.claimAddress), gt(payoutClaims.expiresAt, now)))
    .returning();
  return row ?? null;
}

/** Claimed links of a chain and token that no batch pays yet, oldest claim first, locked for the batch being made. */
export async function lockDueClaims(db: DbOrTx, merchantId: number, blockchainId: number, currency: string): Promise<PayoutClaim[]> {
  return db
    .select()
    .from(payoutClaims)
    .where(
      and(
        eq(payoutClaims.merchantId, merchantId),
        eq(payoutClaims.blockchainId, blockchainId),
        eq(payoutClaims.currency, currency),
        eq(payoutClaims.status, "claimed"),
        isNull(payoutClaims.batchId),
      ),
    )
    .orderBy(asc(payoutClaims.claimedAt))
    .for("update");
}

export async function attachClaims(db: DbOrTx, ids: string[], batchId: number, now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(payoutClaims).set({ batchId, updatedAt: now }).where(inArray(payoutClaims.id, ids));
}

/** The batch no longer pays its claims (cancelled, re-legged, or the leg failed): the next batch may. */
export async function releaseClaims(db: DbOrTx, batchId: number, now: Date, ids?: string[]): Promise<void> {
  await db
    .update(payoutClaims)
    .set({ batchId: null, updatedAt: now })
    .where(and(eq(payoutClaims.batchId, batchId), eq(payoutClaims.status, "claimed"), ids ? inArray(payoutClaims.id, ids) : undefined));
}

export async function markClaimsPaid(db: DbOrTx, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(payoutClaims).set({ status: "paid", paidAt: now, updatedAt: now }).where(inArray(payoutClaims.id, ids));
}
