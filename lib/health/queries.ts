import { and, count, inArray, isNotNull, lte, min, sql } from "drizzle-orm";
import { chainCursors, sweeps, webhookDeliveries } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { dueRows } from "@/lib/webhooks/queries";

/** Reachability probe for readiness: one round trip. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}

/** The last fully scanned block of every chain with a cursor. */
export async function scannedBlocks(db: DbOrTx): Promise<Array<{ blockchainId: number; lastBlock: bigint }>> {
  return db.select({ blockchainId: chainCursors.blockchainId, lastBlock: chainCursors.lastBlock }).from(chainCursors);
}

/** Webhook deliveries waiting to be sent now (pending and due), and when the oldest fell due. */
export async function dueDeliveries(db: DbOrTx, now: Date): Promise<{ due: number; oldestDueAt: Date | null }> {
  const [row] = await db
    .select({ due: count(), oldestDueAt: min(webhookDeliveries.nextAttemptAt) })
    .from(webhookDeliveries)
    .where(and(dueRows, isNotNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, now)));
  return { due: Number(row?.due ?? 0), oldestDueAt: row?.oldestDueAt ?? null };
}

/** Sweeps still to do (pending, submitted) and given up (failed), by status. */
export async function sweepCountsByStatus(db: DbOrTx): Promise<Record<"pending" | "submitted" | "failed", number>> {
  const rows = await db
    .select({ status: sweeps.status, n: count() })
    .from(sweeps)
    .where(inArray(sweeps.status, ["pending", "submitted", "failed"]))
    .groupBy(sweeps.status);
  const out = { pending: 0, submitted: 0, failed: 0 };
  for (const row of rows) out[row.status as keyof typeof out] = Number(row.n);
  return out;
}
