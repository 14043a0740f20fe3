import { and, asc, count, desc, eq, lte, or, type SQL } from "drizzle-orm";
import {
  subscriptionEvents,
  subscriptionPlans,
  subscriptions,
  type NewSubscription,
  type NewSubscriptionPlan,
  type Subscription,
  type SubscriptionEvent,
  type SubscriptionPlan,
  type SubscriptionStatus,
} from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function insertPlan(db: DbOrTx, plan: NewSubscriptionPlan): Promise<SubscriptionPlan> {
  const [row] = await db.insert(subscriptionPlans).values(plan).returning();
  return row!;
}

export async function findMerchantPlan(db: DbOrTx, merchantId: number, planId: string): Promise<SubscriptionPlan | null> {
  const [row] = await db
    .select()
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.merchantId, merchantId), eq(subscriptionPlans.planId, planId)))
    .limit(1);
  return row ?? null;
}

export async function listMerchantPlans(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const where = eq(subscriptionPlans.merchantId, merchantId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(subscriptionPlans)
      .where(where)
      .orderBy(desc(subscriptionPlans.createdAt), desc(subscriptionPlans.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(subscriptionPlans).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

export async function insertSubscription(db: DbOrTx, subscription: NewSubscription): Promise<Subscription> {
  const [row] = await db.insert(subscriptions).values(subscription).returning();
  return row!;
}

export async function insertSubscriptionEvent(
  db: DbOrTx,
  event: { subscriptionId: number; merchantId: number; kind: string; status: SubscriptionStatus; detail?: Record<string, unknown> | null; createdAt: Date },
): Promise<void> {
  await db.insert(subscriptionEvents).values({ ...event, detail: event.detail ?? null });
}

export async function findMerchantSubscription(db: DbOrTx, merchantId: number, subscriptionId: string) {
  const [row] = await db
    .select({ subscription: subscriptions, planId: subscriptionPlans.planId })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.merchantId, merchantId), eq(subscriptions.subscriptionId, subscriptionId)))
    .limit(1);
  return row ?? null;
}

export async function findMerchantSubscriptionById(db: DbOrTx, merchantId: number, id: number) {
  const [row] = await db
    .select({ subscription: subscriptions, planId: subscriptionPlans.planId })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.merchantId, merchantId), eq(subscriptions.id, id)))
    .limit(1);
  return row ?? null;
}

export async function listSubscriptionEvents(db: DbOrTx, merchantId: number, subscriptionRowId: number): Promise<SubscriptionEvent[]> {
  return db
    .select()
    .from(subscriptionEvents)
    .where(and(eq(subscriptionEvents.merchantId, merchantId), eq(subscriptionEvents.subscriptionId, subscriptionRowId)))
    .orderBy(asc(subscriptionEvents.id));
}

export async function listMerchantSubscriptions(
  db: DbOrTx,
  merchantId: number,
  filter: { status?: SubscriptionStatus; planId?: string; customerAddress?: string },
  window: { limit: number; offset: number },
) {
  const conditions: SQL[] = [eq(subscriptions.merchantId, merchantId)];
  if (filter.status) conditions.push(eq(subscriptions.status, filter.status));
  if (filter.planId) conditions.push(eq(subscriptionPlans.planId, filter.planId));
  if (filter.customerAddress) conditions.push(eq(subscriptions.subscriberAddress, filter.customerAddress));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ subscription: subscriptions, planId: subscriptionPlans.planId })
      .from(subscriptions)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
      .where(where)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(subscriptions).innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId)).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

/** Moves a subscription from one of `from` to `status` (a conditional update: a concurrent change wins once). */
export async function transitionSubscription(
  db: DbOrTx,
  merchantId: number,
  id: number,
  from: readonly SubscriptionStatus[],
  values: Partial<NewSubscription> & { status: SubscriptionStatus },
): Promise<Subscription | null> {
  const [row] = await db
    .update(subscriptions)
    .set(values)
    .where(and(eq(subscriptions.merchantId, merchantId), eq(subscriptions.id, id), inStatuses(from)))
    .returning();
  return row ?? null;
}

function inStatuses(statuses: readonly SubscriptionStatus[]): SQL {
  return or(...statuses.map((status) => eq(subscriptions.status, status)))!;
}

/** Live subscriptions on a chain whose next attempt is due, oldest due first, with their plan's retry rules. */
export async function findDueSubscriptions(db: DbOrTx, blockchainId: number, now: Date, limit: number) {
  return db
    .select({
      subscription: subscriptions,
      planId: subscriptionPlans.planId,
      graceDays: subscriptionPlans.graceDays,
      pastDueDays: subscriptionPlans.pastDueDays,
      priceAmount: subscriptionPlans.priceAmount,
      priceCurrency: subscriptionPlans.priceCurrency,
    })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.blockchainId, blockchainId), inStatuses(["trialing", "active", "past_due"]), lte(subscriptions.nextAttemptAt, now)))
    .orderBy(asc(subscriptions.nextAttemptAt))
    .limit(limit);
}

/**
 * Claims a due subscription for one charge attempt: moves its next attempt to `leaseUntil` only if
 * it is still the `seen` one (another instance, or a run before a restart, that claimed it first
 * moved it). A claim whose holder died runs out at `leaseUntil`, and the next attempt reads the
 * contract before charging, so it neither loses nor doubles a charge.
 */
export async function claimSubscription(
  db: DbOrTx,
  id: number,
  seen: Date,
  leaseUntil: Date,
  statuses: readonly SubscriptionStatus[] = ["trialing", "active", "past_due"],
): Promise<boolean> {
  const rows = await db
    .update(subscriptions)
    .set({ nextAttemptAt: leaseUntil })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.nextAttemptAt, seen), inStatuses(statuses)))
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

export async function countSubscriptionEvents(db: DbOrTx, subscriptionRowId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(subscriptionEvents).where(eq(subscriptionEvents.subscriptionId, subscriptionRowId));
  return row?.value ?? 0;
}

/** Canceled subscriptions whose contract is still to be cancelled on chain (next_attempt_at set). */
export async function findChainCancelsDue(db: DbOrTx, blockchainId: number, now: Date, limit: number) {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.blockchainId, blockchainId), eq(subscriptions.status, "canceled"), lte(subscriptions.nextAttemptAt, now)))
    .orderBy(asc(subscriptions.nextAttemptAt))
    .limit(limit);
}

export async function markChainCanceled(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(subscriptions)
    .set({ nextAttemptAt: null, updatedAt: now })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, "canceled")));
}
