import { eq } from "drizzle-orm";
import { merchants, subscriptionPlans, subscriptions } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/**
 * A subscription by its public id, for the customer's pages (public by that unguessable id, or by a
 * manage token naming it): the subscription, its plan's public id and name, and its store.
 */
export async function findSubscriptionForCustomer(db: DbOrTx, subscriptionId: string) {
  const [row] = await db
    .select({
      subscription: subscriptions,
      planId: subscriptionPlans.planId,
      planName: subscriptionPlans.name,
      trialDays: subscriptionPlans.trialDays,
      periods: subscriptionPlans.periods,
      shopName: merchants.shopName,
    })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .innerJoin(merchants, eq(merchants.id, subscriptions.merchantId))
    .where(eq(subscriptions.subscriptionId, subscriptionId))
    .limit(1);
  return row ?? null;
}
