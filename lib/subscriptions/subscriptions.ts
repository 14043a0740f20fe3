import "server-only";
import { getAddress, keccak256, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { recordAudit } from "@/lib/audit/record";
import { findBlockchainById, findToken } from "@/lib/chains/catalog";
import { subscriptionPullAddress, type SubscriptionTerms } from "@/lib/chains/subscription-pull";
import { sweeperKey } from "@/lib/chains/sweeper";
import type { Subscription, SubscriptionStatus } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { findWalletForChain } from "@/lib/wallets/queries";
import { recordSubscriptionHistory } from "./history";
import { serializeSubscription } from "./serialize";
import { subscriptionFactoryFor } from "./factory";
import { listCharges } from "./charge-queries";
import { getPlanOrThrow } from "./plans";
import { findMerchantSubscription, insertSubscription, listMerchantSubscriptions, listSubscriptionEvents, transitionSubscription } from "./queries";
import type { CreateSubscriptionBody } from "./schemas";

const daySeconds = 86_400;

/** The states a subscription still charges (or will, after its trial) in. */
export const liveStatuses = ["trialing", "active", "past_due"] as const satisfies readonly SubscriptionStatus[];

/** The pull contract's terms as recorded for a subscription. */
export function subscriptionTerms(subscription: Subscription): SubscriptionTerms {
  return {
    token: subscription.tokenAddress as Address,
    subscriber: subscription.subscriberAddress as Address,
    merchant: subscription.merchantAddress as Address,
    operator: subscription.operatorAddress as Address,
    maxAmountPerPeriod: BigInt(subscription.maxAmountPerPeriod),
    period: BigInt(subscription.periodSeconds),
    start: BigInt(Math.floor(subscription.startsAt.getTime() / 1000)),
    end: subscription.endsAt ? BigInt(Math.floor(subscription.endsAt.getTime() / 1000)) : 0n,
    id: subscription.termsId as Hex,
  };
}

/**
 * A subscription of `customer_address` to an active plan: the terms are fixed now (the merchant's
 * active wallet on the plan's chain, the gateway's key, the cap, the trial's end) and give the pull
 * contract's address, which the customer's allowance must name. Charging starts once it does.
 */
export async function createSubscription(
  db: DbOrTx,
  merchantId: number,
  input: CreateSubscriptionBody,
  now = new Date(),
  /** Run first in the transaction that inserts it (a public caller's caps, decided under a lock). */
  admit?: (tx: DbOrTx) => Promise<void>,
): Promise<{ subscription: Subscription; planId: string }> {
  const plan = await getPlanOrThrow(db, merchantId, input.plan);
  if (plan.status !== "active") throw validationError({ plan: ["This plan is archived and takes no new subscribers."] });
  const chain = findBlockchainById(plan.blockchainId);
  const token = chain ? findToken(chain, plan.currency) : null;
  const factory = chain ? subscriptionFactoryFor(chain) : null;
  const operatorKey = chain ? sweeperKey(chain) : null;
  if (!chain || !token?.address || !factory || !operatorKey)
    throw new ApiError("INVALID_BLOCKCHAIN", "Subscriptions are not available on this plan's blockchain now.");
  const wallet = await findWalletForChain(db, merchantId, chain.id);
  if (!wallet || !wallet.isActive)
    throw new ApiError("WALLET_NOT_CONFIGURED", `No active wallet is configured for ${chain.slug}; add one with POST /api/merchant-wallets/.`);
  const subscriptionId = newId("subscription");
  const periodSeconds = plan.intervalDays * daySeconds;
  const startsAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + plan.trialDays * daySeconds * 1000);
  const endsAt = plan.periods ? new Date(startsAt.getTime() + plan.periods * periodSeconds * 1000) : null;
  const values = {
    subscriptionId,
    merchantId,
    planId: plan.id,
    status: (plan.trialDays > 0 ? "trialing" : "active") as SubscriptionStatus,
    blockchainId: chain.id,
    tokenAddress: token.address,
    subscriberAddress: getAddress(input.customer_address),
    merchantAddress: getAddress(wallet.walletAddress),
    operatorAddress: privateKeyToAccount(operatorKey).address,
    maxAmountPerPeriod: plan.maxAmountPerPeriod,
    periodSeconds,
    startsAt,
    endsAt,
    termsId: keccak256(toHex(subscriptionId)),
    customerEmail: input.customer_email ?? null,
    customerLocale: input.customer_locale ?? null,
    nextAttemptAt: startsAt,
    createdAt: now,
    updatedAt: now,
  };
  const pullAddress = subscriptionPullAddress(
    factory,
    subscriptionTerms({
      ...values,
      pullAddress: "",
      id: 0,
      nextPeriod: 0,
      periodsCharged: 0,
      failingSince: null,
      canceledAt: null,
      cancelReason: null,
    } as Subscription),
  );
  let queued = false;
  const created = await db.transaction(async (tx) => {
    await admit?.(tx);
    const subscription = await insertSubscription(tx, { ...values, pullAddress });
    if (await recordSubscriptionHistory(tx, subscription, plan.planId, "created", { plan: plan.planId }, now)) queued = true;
    await recordAudit(tx, {
      merchantId,
      action: "subscription.created",
      target: `subscription:${subscriptionId}`,
      after: { plan: plan.planId, customer_address: values.subscriberAddress },
      now,
    });
    return { subscription, planId: plan.planId };
  });
  if (queued) await notifyDeliveriesDue();
  return created;
}

export async function getSubscriptionOrThrow(db: DbOrTx, merchantId: number, subscriptionId: string) {
  const found = await findMerchantSubscription(db, merchantId, subscriptionId);
  if (!found) throw notFound("Subscription");
  return found;
}

export async function getSubscriptionView(db: DbOrTx, merchantId: number, subscriptionId: string) {
  const { subscription, planId } = await getSubscriptionOrThrow(db, merchantId, subscriptionId);
  const [history, charges] = await Promise.all([listSubscriptionEvents(db, merchantId, subscription.id), listCharges(db, merchantId, subscription.id)]);
  return serializeSubscription(subscription, planId, history, charges);
}

export async function listSubscriptions(
  db: DbOrTx,
  merchantId: number,
  filter: { status?: SubscriptionStatus; plan?: string; customer_address?: string },
  window: { limit: number; offset: number },
) {
  const { rows, count } = await listMerchantSubscriptions(
    db,
    merchantId,
    { status: filter.status, planId: filter.plan, customerAddress: filter.customer_address ? getAddress(filter.customer_address) : undefined },
    window,
  );
  return { count, rows: rows.map((row) => serializeSubscription(row.subscription, row.planId)) };
}

type MerchantChange = { kind: "canceled" | "paused" | "resumed"; from: readonly SubscriptionStatus[]; to: (subscription: Subscription) => SubscriptionStatus };

const merchantChanges: Record<"cancel" | "pause" | "resume", MerchantChange> = {
  cancel: { kind: "canceled", from: [...liveStatuses, "paused"], to: () => "canceled" },
  pause: { kind: "paused", from: liveStatuses, to: () => "paused" },
  // Back to trialing while the trial runs, else active (a past-due debt is not carried over a pause).
  resume: { kind: "resumed", from: ["paused"], to: (s) => (s.startsAt.getTime() > Date.now() ? "trialing" : "active") },
};

/**
 * The merchant cancels, pauses or resumes a subscription (API and dashboard), or the customer
 * cancels it (the manage page, `by` "customer"): a conditional update
 * from the states that allow it, a history entry and an audit entry in one transaction. 409
 * CONFLICT from any other state. A cancel is final; the engine also cancels the
 * pull contract on chain, so a stolen gateway key cannot charge it later.
 */
export async function changeSubscription(
  db: DbOrTx,
  merchantId: number,
  subscriptionId: string,
  change: keyof typeof merchantChanges,
  reason: string | null = null,
  now = new Date(),
  /** Who asks: the merchant (API, dashboard) or the customer (the manage page, cancel only). */
  by: "merchant" | "customer" = "merchant",
) {
  const { subscription, planId } = await getSubscriptionOrThrow(db, merchantId, subscriptionId);
  const rule = merchantChanges[change];
  const status = rule.to(subscription);
  let queued = false;
  const view = await db.transaction(async (tx) => {
    const updated = await transitionSubscription(tx, merchantId, subscription.id, rule.from, {
      status,
      updatedAt: now,
      // A cancel also has the engine cancel the contract on chain (its next attempt, now).
      ...(change === "cancel" ? { canceledAt: now, cancelReason: reason ?? by, nextAttemptAt: now } : {}),
      ...(change === "resume" ? { failingSince: null, nextAttemptAt: now } : {}),
    });
    if (!updated) throw new ApiError("CONFLICT", `A ${subscription.status} subscription cannot be ${rule.kind === "canceled" ? "canceled" : rule.kind}.`);
    if (await recordSubscriptionHistory(tx, updated, planId, rule.kind, reason ? { reason } : { by }, now)) queued = true;
    await recordAudit(tx, {
      merchantId,
      action: `subscription.${rule.kind}`,
      target: `subscription:${subscriptionId}`,
      before: { status: subscription.status },
      after: by === "customer" ? { status, by } : { status },
      now,
    });
    return serializeSubscription(updated, planId, await listSubscriptionEvents(tx, merchantId, updated.id));
  });
  if (queued) await notifyDeliveriesDue();
  return view;
}
