import "server-only";
import { getAddress } from "viem";
import { findMerchantById } from "@/lib/auth/queries";
import { countMerchant } from "@/lib/auth/rate-limit";
import { publicBrand, storeLook } from "@/lib/branding/branding";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { SubscriptionPlan } from "@/lib/db/schema";
import { lockForTransaction } from "@/lib/db/transaction-locks";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { countUnauthorizedPlanSubscriptions, findPlanForCustomer, findWaitingCustomerSubscription } from "./plan-link-queries";
import { planIdPattern, serializePlan } from "./plans";
import { createSubscription } from "./subscriptions";
import type { StartPlanSubscriptionBody } from "./plan-link-routes";

/**
 * A plan's public subscribe link (docs/design/subscriptions.md › The plan's public link): the page
 * /subscribe/plan/{plan_id}, public by the plan's unguessable id while the merchant has its
 * `public_link` on, where any customer gives their wallet and gets their own subscription, then
 * signs on its hosted page /subscribe/{subscription_id} like any other.
 */

/** A day: how far back a customer's waiting subscription is handed out again, and the window of the cap below. */
const waitingWindowMs = 24 * 3600 * 1000;

/**
 * Subscriptions of one plan made in the last day and still waiting for their customer's allowance at
 * which the public link stops making more (429): anyone may call it, and each one is a row and a
 * `subscription.created` webhook to the merchant.
 */
export const planLinkWaitingCap = 100;

/** The same across all of a merchant's shared plans: sharing several plans does not multiply what strangers can make. */
export const planLinkMerchantWaitingCap = 300;

/**
 * The caps, decided in the transaction that inserts the subscription under a lock per merchant: the counts and the
 * insert of parallel requests go one after another, so the caps hold however many come at once.
 */
const planLinkAdmission = (plan: SubscriptionPlan, since: Date) => async (tx: DbOrTx) => {
  await lockForTransaction(tx, [`plan-link-subscriptions:${plan.merchantId}`]);
  await assertRoomForPlanSubscription(tx, plan, since);
};

async function assertRoomForPlanSubscription(db: DbOrTx, plan: SubscriptionPlan, since: Date): Promise<void> {
  const waiting = await countUnauthorizedPlanSubscriptions(db, plan, since);
  if (waiting.plan >= planLinkWaitingCap || waiting.sharedPlans >= planLinkMerchantWaitingCap) throw rateLimitedError({ retryAfterSeconds: 3600 });
}

async function findPublicPlanOrThrow(db: DbOrTx, planId: string) {
  const found = planIdPattern.test(planId) ? await findPlanForCustomer(db, planId) : null;
  // A plan whose link is off is no more public than an unknown one.
  if (!found || !found.plan.publicLink) throw notFound("Subscription plan");
  return found;
}

/** What the plan's public page shows: the terms, the store, and whether it takes new subscribers. */
export async function getPublicPlanView(db: DbOrTx, planId: string, now = new Date()) {
  const { plan, shopName } = await findPublicPlanOrThrow(db, planId);
  const view = serializePlan(plan);
  const chain = findBlockchainById(plan.blockchainId);
  const look = await storeLook(db, plan.merchantId);
  return {
    id: view.id,
    name: view.name,
    status: view.status,
    shop_name: look?.name ?? shopName,
    brand: publicBrand(look),
    blockchain: { slug: view.blockchain, name: chain?.name ?? view.blockchain, chain_id: chain?.chainId ?? null },
    currency: view.currency,
    amount: view.amount,
    price_amount: view.price_amount,
    price_currency: view.price_currency,
    max_amount: view.max_amount,
    interval_days: view.interval_days,
    trial_days: view.trial_days,
    periods: view.periods,
    // As createSubscription fixes it: whole seconds, then the trial.
    first_charge_at: new Date(Math.floor(now.getTime() / 1000) * 1000 + plan.trialDays * 86_400_000).toISOString(),
  };
}

/**
 * A customer starts their own subscription from the plan's public link: the same use-case as the
 * merchant's POST /api/subscriptions (terms fixed now, `subscription.created` webhook), for the wallet
 * the customer gives. A customer who comes back within a day with the same wallet and mail address
 * gets their subscription still waiting for its allowance, not another. 404 while the link is off,
 * 409 CONFLICT for an archived plan, 429 over the caps of waiting subscriptions (the plan's, all the merchant's shared
 * plans') or the merchant's hourly limit.
 */
export async function startPlanSubscription(db: DbOrTx, planId: string, input: StartPlanSubscriptionBody, now = new Date()) {
  const { plan } = await findPublicPlanOrThrow(db, planId);
  if (plan.status !== "active") throw new ApiError("CONFLICT", "This plan takes no new subscribers.");
  const address = getAddress(input.customer_address);
  const email = input.customer_email ?? null;
  const since = new Date(now.getTime() - waitingWindowMs);
  const waiting = await findWaitingCustomerSubscription(db, plan, address, email, since);
  if (waiting) return { subscription: waiting, created: false };
  // Early, without a lock: a flood past the caps is refused before it counts toward the hourly limit.
  await assertRoomForPlanSubscription(db, plan, since);
  const merchant = await findMerchantById(db, plan.merchantId);
  if (!merchant) throw notFound("Subscription plan");
  const quota = await countMerchant(db, { merchantId: merchant.id, plan: merchant.plan, rateLimitPerHour: merchant.rateLimitPerHour }, now);
  if (quota.exceeded) throw rateLimitedError(quota);
  const { subscription } = await createSubscription(
    db,
    plan.merchantId,
    { plan: plan.planId, customer_address: address, customer_email: email },
    now,
    planLinkAdmission(plan, since),
  );
  return { subscription, created: true };
}
