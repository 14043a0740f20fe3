import { and, count, desc, eq, gte, inArray, isNull, type SQL } from "drizzle-orm";
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

/** How many of the plan's subscriptions made since `since` still wait for their customer's allowance. */
export async function countUnauthorizedPlanSubscriptions(db: DbOrTx, plan: SubscriptionPlan, since: Date): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.merchantId, plan.merchantId),
        eq(subscriptions.planId, plan.id),
        isNull(subscriptions.authorizedAt),
        gte(subscriptions.createdAt, since),
      ),
    );
  return row?.value ?? 0;
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
