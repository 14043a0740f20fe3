import "server-only";
import { BaseError, ContractFunctionRevertedError, createWalletClient, erc20Abi, http, parseSignature, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient, viemChain } from "@/lib/chains/clients";
import { subscriptionFactoryArtifact, subscriptionPullArtifact } from "@/lib/chains/contract-artifacts";
import { termsArgument } from "@/lib/chains/subscription-pull";
import { sweeperKey } from "@/lib/chains/sweeper";
import type { Subscription, SubscriptionStatus } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { log } from "@/lib/log";
import { serializeSubscription } from "./serialize";
import { subscriptionFactoryFor } from "./factory";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { recordSubscriptionHistory } from "./history";
import { claimSubscription, findChainCancelsDue, findDueSubscriptions, markChainCanceled, transitionSubscription } from "./queries";
import { liveStatuses, subscriptionTerms } from "./subscriptions";

const dayMs = 86_400_000;
/** How long a claimed attempt may take before another run may take it over. */
const claimLeaseMs = 10 * 60_000;
/** Between retries of a failed charge, within the grace period. */
export const chargeRetryMs = 6 * 3_600_000;
const batchSize = 50;

export interface ChargeRunResult {
  charged: string[];
  failed: string[];
}

type Due = { subscription: Subscription; planId: string; graceDays: number; pastDueDays: number };

/**
 * Charges every subscription on `chain` whose next attempt is due by the chain's clock (the
 * contract's periods run on block time): each claimed first (a conditional update, so two
 * instances never attempt one subscription at once), then the contract read, so a charge already
 * mined before a crash is recorded rather than sent again.
 */
export async function chargeDueSubscriptions(db: DbOrTx, chain: Blockchain): Promise<ChargeRunResult> {
  const result: ChargeRunResult = { charged: [], failed: [] };
  const key = sweeperKey(chain);
  if (!key) return result;
  // Most chains have no subscription waiting at all: skip reading their clock.
  const farFuture = new Date("9999-12-31T00:00:00Z");
  if ((await findDueSubscriptions(db, chain.id, farFuture, 1)).length === 0 && (await findChainCancelsDue(db, chain.id, farFuture, 1)).length === 0)
    return result;
  const client = chainClient(chain);
  const chainNow = new Date(Number((await client.getBlock({ blockTag: "latest" })).timestamp) * 1000);
  await cancelContracts(db, chain, key, chainNow);
  for (const due of await findDueSubscriptions(db, chain.id, chainNow, batchSize)) {
    const seen = due.subscription.nextAttemptAt!;
    if (!(await claimSubscription(db, due.subscription.id, seen, new Date(chainNow.getTime() + claimLeaseMs)))) continue;
    try {
      const outcome = await attemptCharge(db, chain, key, due, chainNow);
      if (outcome === "charged") result.charged.push(due.subscription.subscriptionId);
      if (outcome === "failed") result.failed.push(due.subscription.subscriptionId);
    } catch (error) {
      // The claim runs out and a later run tries again, reading the contract first.
      log.warn("subscription charge attempt did not complete", { subscription_id: due.subscription.subscriptionId, error: String(error) });
    }
  }
  return result;
}

async function attemptCharge(db: DbOrTx, chain: Blockchain, key: Hex, due: Due, chainNow: Date): Promise<"charged" | "failed" | "ended" | "waiting"> {
  const { subscription } = due;
  const client = chainClient(chain);
  const wallet = createWalletClient({ account: privateKeyToAccount(key), chain: viemChain(chain), transport: http(chain.rpcUrl ?? undefined) });
  const periodMs = subscription.periodSeconds * 1000;
  const startMs = subscription.startsAt.getTime();
  if (chainNow.getTime() < startMs) {
    await transitionSubscription(db, subscription.merchantId, subscription.id, liveStatuses, {
      status: subscription.status,
      nextAttemptAt: subscription.startsAt,
      updatedAt: chainNow,
    });
    return "waiting";
  }
  const index = Math.floor((chainNow.getTime() - startMs) / periodMs);
  const periodStart = startMs + index * periodMs;
  if (subscription.endsAt && periodStart >= subscription.endsAt.getTime()) {
    await moveTo(db, due, "ended", "ended", null, chainNow, { nextAttemptAt: null });
    return "ended";
  }
  const terms = subscriptionTerms(subscription);
  const pull = subscription.pullAddress as Address;
  const code = await client.getCode({ address: pull });
  if (!code || code === "0x") {
    const factory = deployFactoryAddress(subscription, chain);
    const hash = await wallet.writeContract({
      address: factory,
      abi: subscriptionFactoryArtifact.abi,
      functionName: "deploy",
      args: [termsArgument(terms)],
      chain: viemChain(chain),
      account: wallet.account,
    });
    await client.waitForTransactionReceipt({ hash });
  }
  const onChainNext = Number(await client.readContract({ address: pull, abi: subscriptionPullArtifact.abi, functionName: "nextPeriod" }));
  if (onChainNext > index) {
    // Mined before a crash (or by the merchant): record it, never send it again.
    await recordCharged(db, due, index, terms.maxAmountPerPeriod, null, chainNow);
    return "charged";
  }
  try {
    const { request } = await client.simulateContract({
      account: wallet.account,
      address: pull,
      abi: subscriptionPullArtifact.abi,
      functionName: "charge",
      args: [terms.maxAmountPerPeriod],
    });
    const hash = await wallet.writeContract({ ...request, chain: viemChain(chain) });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status === "success") {
      await recordCharged(db, due, index, terms.maxAmountPerPeriod, hash, chainNow);
      return "charged";
    }
    await recordFailure(db, due, chainNow, "reverted");
    return "failed";
  } catch (error) {
    const reverted =
      error instanceof BaseError ? (error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;
    if (!reverted) throw error;
    await recordFailure(db, due, chainNow, reverted.data?.errorName ?? "reverted");
    return "failed";
  }
}

function deployFactoryAddress(subscription: Subscription, chain: Blockchain): Address {
  const factory = subscriptionFactoryFor(chain);
  if (!factory) throw new Error(`No subscription factory on ${chain.slug} for ${subscription.subscriptionId}`);
  return factory;
}

async function moveTo(
  db: DbOrTx,
  due: Due,
  status: SubscriptionStatus,
  kind: string,
  detail: Record<string, unknown> | null,
  now: Date,
  values: Partial<Subscription> = {},
) {
  const { subscription } = due;
  let queued = false;
  const updated = await db.transaction(async (tx) => {
    const row = await transitionSubscription(tx, subscription.merchantId, subscription.id, liveStatuses, { status, updatedAt: now, ...values });
    if (row) queued = await recordSubscriptionHistory(tx, row, due.planId, kind, detail, now);
    return row;
  });
  if (queued) await notifyDeliveriesDue();
  return updated;
}

async function recordCharged(db: DbOrTx, due: Due, index: number, amount: bigint, txHash: Hex | null, now: Date) {
  const { subscription } = due;
  const next = new Date(subscription.startsAt.getTime() + (index + 1) * subscription.periodSeconds * 1000);
  await moveTo(db, due, "active", "charged", { period: index, amount: amount.toString(), tx_hash: txHash }, now, {
    nextPeriod: index + 1,
    periodsCharged: subscription.periodsCharged + 1,
    failingSince: null,
    nextAttemptAt: next,
  });
}

/**
 * A failed charge (empty wallet, revoked allowance): payment_failed at the first failure, retried
 * every `chargeRetryMs`; past due once the plan's grace days have passed since then; canceled once
 * its past-due days have passed too.
 */
async function recordFailure(db: DbOrTx, due: Due, now: Date, reason: string) {
  const { subscription } = due;
  const since = subscription.failingSince ?? now;
  const pastDueAt = since.getTime() + due.graceDays * dayMs;
  const cancelAt = pastDueAt + due.pastDueDays * dayMs;
  const retry = new Date(now.getTime() + chargeRetryMs);
  if (!subscription.failingSince) {
    await moveTo(db, due, subscription.status, "payment_failed", { reason }, now, { failingSince: since, nextAttemptAt: retry });
  } else if (now.getTime() >= cancelAt) {
    await moveTo(db, due, "canceled", "canceled", { reason: "past_due", last_failure: reason }, now, {
      canceledAt: now,
      cancelReason: "past_due",
      nextAttemptAt: now,
    });
  } else if (now.getTime() >= pastDueAt && subscription.status !== "past_due") {
    await moveTo(db, due, "past_due", "past_due", { reason }, now, { nextAttemptAt: retry });
  } else {
    await transitionSubscription(db, subscription.merchantId, subscription.id, liveStatuses, {
      status: subscription.status,
      nextAttemptAt: retry,
      updatedAt: now,
    });
  }
}

/**
 * Cancels on chain the contracts of subscriptions canceled here (by the merchant, or past due), so
 * a gateway key stolen later cannot charge them. A contract not deployed yet is deployed first when
 * the customer's allowance to it is still there (anyone may deploy it); with no allowance there is
 * nothing to protect.
 */
async function cancelContracts(db: DbOrTx, chain: Blockchain, key: Hex, chainNow: Date): Promise<void> {
  const client = chainClient(chain);
  const wallet = createWalletClient({ account: privateKeyToAccount(key), chain: viemChain(chain), transport: http(chain.rpcUrl ?? undefined) });
  for (const subscription of await findChainCancelsDue(db, chain.id, chainNow, batchSize)) {
    if (!(await claimSubscription(db, subscription.id, subscription.nextAttemptAt!, new Date(chainNow.getTime() + claimLeaseMs), ["canceled"]))) continue;
    try {
      const pull = subscription.pullAddress as Address;
      const code = await client.getCode({ address: pull });
      if (!code || code === "0x") {
        const allowance = await client.readContract({
          address: subscription.tokenAddress as Address,
          abi: erc20Abi,
          functionName: "allowance",
          args: [subscription.subscriberAddress as Address, pull],
        });
        if (allowance === 0n) {
          await markChainCanceled(db, subscription.id, chainNow);
          continue;
        }
        const deploy = await wallet.writeContract({
          address: deployFactoryAddress(subscription, chain),
          abi: subscriptionFactoryArtifact.abi,
          functionName: "deploy",
          args: [termsArgument(subscriptionTerms(subscription))],
          chain: viemChain(chain),
          account: wallet.account,
        });
        await client.waitForTransactionReceipt({ hash: deploy });
      }
      const canceled = await client.readContract({ address: pull, abi: subscriptionPullArtifact.abi, functionName: "canceled" });
      if (!canceled) {
        const hash = await wallet.writeContract({
          address: pull,
          abi: subscriptionPullArtifact.abi,
          functionName: "cancel",
          chain: viemChain(chain),
          account: wallet.account,
        });
        const receipt = await client.waitForTransactionReceipt({ hash });
        if (receipt.status !== "success") throw new Error(`cancel reverted (tx ${hash})`);
      }
      await markChainCanceled(db, subscription.id, chainNow);
    } catch (error) {
      // The claim runs out and a later run tries again.
      log.warn("cancelling a subscription contract did not complete", { subscription_id: subscription.subscriptionId, error: String(error) });
    }
  }
}

/**
 * Deploys a subscription's pull contract and submits the customer's permit in one transaction the
 * gateway's key pays for. Only for a live subscription whose contract is not deployed yet (so each
 * subscription costs that gas once); the token checks the signature, and the factory the allowance.
 */
export async function submitPermit(subscription: Subscription, chain: Blockchain, permit: { signature: Hex; deadline: number }): Promise<void> {
  const key = sweeperKey(chain);
  if (!key) throw new ApiError("CONFLICT", "Subscriptions are not available on this blockchain now.");
  if (!(liveStatuses as readonly string[]).includes(subscription.status))
    throw new ApiError("CONFLICT", `A ${subscription.status} subscription takes no authorization.`);
  const client = chainClient(chain);
  const pull = subscription.pullAddress as Address;
  const code = await client.getCode({ address: pull });
  if (code && code !== "0x")
    throw new ApiError("CONFLICT", "This subscription's contract is already deployed; the customer grants further allowance with an approve.");
  const wallet = createWalletClient({ account: privateKeyToAccount(key), chain: viemChain(chain), transport: http(chain.rpcUrl ?? undefined) });
  const { v, r, s } = parseSignature(permit.signature);
  const value = BigInt(serializeSubscription(subscription, "").authorization.value);
  try {
    const { request } = await client.simulateContract({
      account: wallet.account,
      address: deployFactoryAddress(subscription, chain),
      abi: subscriptionFactoryArtifact.abi,
      functionName: "deployWithPermit",
      args: [termsArgument(subscriptionTerms(subscription)), value, BigInt(permit.deadline), Number(v ?? 27n), r, s],
    });
    const receipt = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ ...request, chain: viemChain(chain) }) });
    if (receipt.status !== "success") throw validationError({ signature: ["The permit was refused on chain."] });
  } catch (error) {
    if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError)) {
      throw validationError({
        signature: ["The token refused this permit: sign the authorization shown (spender, value, the current nonce) before its deadline."],
      });
    }
    throw error;
  }
}
