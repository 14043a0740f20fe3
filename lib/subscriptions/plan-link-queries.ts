import { and, count, desc, eq, gte, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { merchants, subscriptionPlans, subscriptions, type SubscriptionPlan } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** The merchant's plan with `values` set (its own plans only); null when it names none of theirs. */
export async function updateMerchantPlan(
  db: DbOrTx,
  merchantId: number,
  planId: string,
  values: Partial<Pick<SubscriptionPlan, "publicLink" | "status" | "updatedAt">>,
): Promise<SubscriptionPlan | null> {
  const [row] = await db
    .update(subscriptionPlans)
    .set(values)
    .where(and(eq(subscriptionPlans.merchantId, merchantId), eq(subscriptionPlans.planId, planId)))
    .returning();
  return row ?? null;
}

/** A plan by its public id, for its public subscribe page (public by that unguessable id), with its store's name. */
export async function findPlanForCustomer(db: DbOrTx, planId: string) {
  const [row] = await db
    .select({ plan: subscriptionPlans, shopName: merchants.shopName })
    .from(subscriptionPlans)
    .innerJoin(merchants, eq(merchants.id, subscriptionPlans.merchantId))
    .where(eq(subscriptionPlans.planId, planId))
    .limit(1);
  return row ?? null;
}

/**
 * How many subscriptions made since `since` still wait for their customer's allowance: of the plan, and of all the
 * merchant's plans whose public link is on.
 */
export async function countUnauthorizedPlanSubscriptions(db: DbOrTx, plan: SubscriptionPlan, since: Date): Promise<{ plan: number; sharedPlans: number }> {
  const [row] = await db
    .select({
      plan: sql<number>`count(*) filter (where ${subscriptions.planId} = ${plan.id})`.mapWith(Number),
      sharedPlans: count(),
    })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(
      and(
        eq(subscriptions.merchantId, plan.merchantId),
        eq(subscriptionPlans.merchantId, plan.merchantId),
        or(eq(subscriptionPlans.publicLink, true), eq(subscriptions.planId, plan.id)),
        isNull(subscriptions.authorizedAt),
        gte(subscriptions.createdAt, since),
      ),
    );
  return { plan: row?.plan ?? 0, sharedPlans: row?.sharedPlans ?? 0 };
}

/**
 * The newest subscription of `address` to the plan made since `since` that is still live and waits for
 * its allowance, with the same mail address: a customer who comes back to the plan's page gets it again.
 */
export async function findWaitingCustomerSubscription(db: DbOrTx, plan: SubscriptionPlan, address: string, email: string | null, since: Date) {
  const where: SQL[] = [
    eq(subscriptions.merchantId, plan.merchantId),
    eq(subscriptions.planId, plan.id),
    eq(subscriptions.subscriberAddress, address),
    isNull(subscriptions.authorizedAt),
    inArray(subscriptions.status, ["trialing", "active"]),
    gte(subscriptions.createdAt, since),
    email === null ? isNull(subscriptions.customerEmail) : eq(subscriptions.customerEmail, email),
  ];
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(...where))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ?? null;
}
