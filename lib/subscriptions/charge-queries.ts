import { and, asc, eq, gte, inArray, or } from "drizzle-orm";
import { subscriptionCharges, type NewSubscriptionCharge, type SubscriptionCharge } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

const liveChargeStatuses = ["sending", "pending", "confirmed"] as const;

/** The period's live charge (sending, pending or confirmed), if any. */
export async function findLiveCharge(db: DbOrTx, subscriptionRowId: number, period: number): Promise<SubscriptionCharge | null> {
  const [row] = await db
    .select()
    .from(subscriptionCharges)
    .where(
      and(
        eq(subscriptionCharges.subscriptionId, subscriptionRowId),
        eq(subscriptionCharges.period, period),
        inArray(subscriptionCharges.status, liveChargeStatuses),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Writes a period's charge before its transaction is sent; null when the period already has a live one (a concurrent attempt). */
export async function insertCharge(db: DbOrTx, charge: NewSubscriptionCharge): Promise<SubscriptionCharge | null> {
  const [row] = await db.insert(subscriptionCharges).values(charge).onConflictDoNothing().returning();
  return row ?? null;
}

export async function updateCharge(db: DbOrTx, id: number, values: Partial<NewSubscriptionCharge>): Promise<SubscriptionCharge | null> {
  const [row] = await db.update(subscriptionCharges).set(values).where(eq(subscriptionCharges.id, id)).returning();
  return row ?? null;
}

/** Moves a charge from one of `from` (a conditional update: a concurrent change wins once). */
export async function markChargeStatus(
  db: DbOrTx,
  id: number,
  from: readonly SubscriptionCharge["status"][],
  values: Partial<NewSubscriptionCharge>,
): Promise<SubscriptionCharge | null> {
  const [row] = await db
    .update(subscriptionCharges)
    .set(values)
    .where(and(eq(subscriptionCharges.id, id), inArray(subscriptionCharges.status, [...from])))
    .returning();
  return row ?? null;
}

/** A subscription's charges, oldest first. */
export async function listCharges(db: DbOrTx, merchantId: number, subscriptionRowId: number): Promise<SubscriptionCharge[]> {
  return db
    .select()
    .from(subscriptionCharges)
    .where(and(eq(subscriptionCharges.merchantId, merchantId), eq(subscriptionCharges.subscriptionId, subscriptionRowId)))
    .orderBy(asc(subscriptionCharges.id));
}

/** Mined charges on a chain still under watch: every pending one, and confirmed ones mined at or above `since`. */
export async function findChargesToTrack(db: DbOrTx, blockchainId: number, since: bigint, limit = 500): Promise<SubscriptionCharge[]> {
  return db
    .select()
    .from(subscriptionCharges)
    .where(
      and(
        eq(subscriptionCharges.blockchainId, blockchainId),
        or(eq(subscriptionCharges.status, "pending"), and(eq(subscriptionCharges.status, "confirmed"), gte(subscriptionCharges.blockNumber, since))),
      ),
    )
    .orderBy(asc(subscriptionCharges.id))
    .limit(limit);
}
