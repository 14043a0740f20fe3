import "server-only";
import { and, asc, count, desc, eq, inArray, isNull, min, ne } from "drizzle-orm";
import { sentTransactions, type SentTransaction } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";

export type NewSentTransaction = Omit<SentTransaction, "id" | "status" | "blockNumber" | "reportedAt" | "createdAt" | "updatedAt">;

/**
 * Records a signed transaction as in flight, before it is broadcast. The very same signed bytes on record already (a
 * transaction a reorg or a reverted devnet took away, built again identically: same nonce, call and fees) are that
 * record, in flight again for its new purpose.
 */
export async function recordSentTransaction(db: DbOrTx, row: NewSentTransaction, now: Date): Promise<SentTransaction> {
  const [inserted] = await db
    .insert(sentTransactions)
    .values({ ...row, status: "in_flight", createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: sentTransactions.hash,
      set: { purpose: row.purpose, purposeId: row.purposeId, status: "in_flight", blockNumber: null, sentAt: row.sentAt, updatedAt: now },
    })
    .returning();
  return inserted!;
}

/** The sender's transactions still in flight on a chain, oldest nonce and send first. */
export async function findInFlight(db: DbOrTx, chainId: number, sender: string): Promise<SentTransaction[]> {
  return db
    .select()
    .from(sentTransactions)
    .where(and(eq(sentTransactions.chainId, chainId), eq(sentTransactions.sender, sender.toLowerCase()), eq(sentTransactions.status, "in_flight")))
    .orderBy(asc(sentTransactions.nonce), asc(sentTransactions.id));
}

/** The sender's record with the highest nonce on a chain, refused transactions aside (null: none). */
export async function highestRecordedSend(db: DbOrTx, chainId: number, sender: string): Promise<Pick<SentTransaction, "nonce" | "hash" | "status"> | null> {
  const [row] = await db
    .select({ nonce: sentTransactions.nonce, hash: sentTransactions.hash, status: sentTransactions.status })
    .from(sentTransactions)
    .where(and(eq(sentTransactions.chainId, chainId), eq(sentTransactions.sender, sender.toLowerCase()), ne(sentTransactions.status, "rejected")))
    .orderBy(desc(sentTransactions.nonce), desc(sentTransactions.id))
    .limit(1);
  return row ?? null;
}

/** Every record of one purpose (oldest first): how many sends and replacements it took. */
export async function findSentFor(db: DbOrTx, purpose: string, purposeId: number): Promise<SentTransaction[]> {
  return db
    .select()
    .from(sentTransactions)
    .where(and(eq(sentTransactions.purpose, purpose), eq(sentTransactions.purposeId, purposeId)))
    .orderBy(asc(sentTransactions.id));
}

/** The nonce is settled: `minedHash` (if any of ours) mined at `blockNumber`, its other in-flight rows replaced; none of ours: all superseded. */
export async function settleNonce(db: Db, rows: SentTransaction[], minedHash: string | null, blockNumber: bigint | null, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    for (const row of rows) {
      const status = minedHash === null ? "superseded" : row.hash === minedHash ? "mined" : "replaced";
      await tx
        .update(sentTransactions)
        .set({ status, blockNumber: row.hash === minedHash ? blockNumber : null, updatedAt: now })
        .where(and(eq(sentTransactions.id, row.id), inArray(sentTransactions.status, ["in_flight"])));
    }
  });
}

/** The node refused the transaction outright: it never flies and holds no nonce. */
export async function markRejected(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(sentTransactions).set({ status: "rejected", updatedAt: now }).where(eq(sentTransactions.id, id));
}

/** Per EVM chain: how many of the gateway's transactions are in flight and since when the oldest (GET /api/metrics). */
export async function inFlightByChain(db: DbOrTx): Promise<Array<{ chainId: number; inFlight: number; oldestSentAt: Date }>> {
  const rows = await db
    .select({ chainId: sentTransactions.chainId, inFlight: count(), oldestSentAt: min(sentTransactions.sentAt) })
    .from(sentTransactions)
    .where(eq(sentTransactions.status, "in_flight"))
    .groupBy(sentTransactions.chainId);
  return rows.map((row) => ({ chainId: row.chainId, inFlight: Number(row.inFlight), oldestSentAt: row.oldestSentAt! }));
}

/** A purpose's mined transaction whose receipt no caller has been handed yet (null: none). */
export async function findUnreportedMined(db: DbOrTx, purpose: string, purposeId: number): Promise<SentTransaction | null> {
  const [row] = await db
    .select()
    .from(sentTransactions)
    .where(
      and(
        eq(sentTransactions.purpose, purpose),
        eq(sentTransactions.purposeId, purposeId),
        eq(sentTransactions.status, "mined"),
        isNull(sentTransactions.reportedAt),
      ),
    )
    .orderBy(desc(sentTransactions.id))
    .limit(1);
  return row ?? null;
}

/** Its purpose's caller now knows how it went. */
export async function markReported(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(sentTransactions).set({ reportedAt: now, updatedAt: now }).where(eq(sentTransactions.id, id));
}
