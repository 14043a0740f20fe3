import "server-only";
import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  keccak256,
  http,
  parseSignature,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient, viemChain } from "@/lib/chains/clients";
import { subscriptionFactoryArtifact, subscriptionPullArtifact } from "@/lib/chains/contract-artifacts";
import { termsArgument } from "@/lib/chains/subscription-pull";
import { sweeperKey } from "@/lib/chains/sweeper";
import { canonicalHashes, isReorgedOut } from "@/lib/chains/block-check";
import { findSentFor } from "@/lib/chains/sent-transaction-queries";
import { FeeAboveCeilingError, sendManaged, TransactionStillPendingError } from "@/lib/chains/tx-sender";
import type { Subscription, SubscriptionCharge, SubscriptionStatus } from "@/lib/db/schema";
import { subscriptionStatuses } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { lockFiatPrice, type LockedPrice } from "@/lib/pricing/lock-price";
import { findWalletForChain } from "@/lib/wallets/queries";
import { relayBudgetExhausted, relayBudgets } from "@/lib/gasless/policy";
import { deleteRelay, reserveRelay } from "@/lib/gasless/queries";
import { recordRelayOutcome } from "@/lib/gasless/relay-outcome";
import { observeGaslessRelay } from "@/lib/metrics/record";
import { findChargesToTrack, findLiveCharge, insertCharge, markChargeStatus, updateCharge } from "./charge-queries";
import { ApiError, validationError } from "@/lib/http/errors";
import { log } from "@/lib/log";
import { serializeSubscription } from "./serialize";
import { subscriptionFactoryFor } from "./factory";
import { bookChargeTransfer, syncChargeTransfer } from "./charge-transfer-queries";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { recordSubscriptionHistory } from "./history";
import {
  claimSubscription,
  findChainCancelsDue,
  findDueSubscriptions,
  findMerchantSubscriptionById,
  markChainCanceled,
  transitionSubscription,
} from "./queries";
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
  /** Charges that reached their confirmation threshold in this run, and charges reorged away ("SUB-…#period"). */
  confirmed: string[];
  reorged: string[];
}

type Due = {
  subscription: Subscription;
  planId: string;
  graceDays: number;
  pastDueDays: number;
  priceAmount: string | null;
  priceCurrency: string | null;
};

/**
 * Charges every subscription on `chain` whose next attempt is due by the chain's clock (the
 * contract's periods run on block time): each claimed first (a conditional update, so two
 * instances never attempt one subscription at once), then the contract read, so a charge already
 * mined before a crash is recorded rather than sent again.
 */
export async function chargeDueSubscriptions(db: DbOrTx, chain: Blockchain): Promise<ChargeRunResult> {
  const result: ChargeRunResult = { charged: [], failed: [], confirmed: [], reorged: [] };
  const key = sweeperKey(chain);
  if (!key) return result;
  // Most chains have no subscription waiting and no charge under watch: skip reading their clock.
  const farFuture = new Date("9999-12-31T00:00:00Z");
  if (
    (await findDueSubscriptions(db, chain.id, farFuture, 1)).length === 0 &&
    (await findChainCancelsDue(db, chain.id, farFuture, 1)).length === 0 &&
    (await findChargesToTrack(db, chain.id, 0n, 1)).length === 0
  )
    return result;
  const client = chainClient(chain);
  const block = await client.getBlock({ blockTag: "latest" });
  const chainNow = new Date(Number(block.timestamp) * 1000);
  // Charges mined earlier first: confirmations counted, a reorged one taken back so this run charges its period again.
  const tracked = await trackCharges(db, chain, client, block.number!, chainNow);
  result.confirmed.push(...tracked.confirmed);
  result.reorged.push(...tracked.reorged);
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
    // The gateway pays the deploy: only for a customer who has granted the pull address a period's allowance (an
    // unauthorized subscription, such as one a stranger started from a plan's public link, costs no gas).
    const allowance = await client.readContract({
      address: subscription.tokenAddress as Address,
      abi: erc20Abi,
      functionName: "allowance",
      args: [subscription.subscriberAddress as Address, pull],
    });
    if (allowance < terms.maxAmountPerPeriod) {
      await recordFailure(db, due, chainNow, "TokenTransferFailed", { allowance: allowance.toString() });
      return "failed";
    }
    const factory = deployFactoryAddress(subscription, chain);
    const { hash, receipt } = await sendAsOperator(db, chain, key, deployPurpose, subscription.id, async () => ({
      to: factory,
      data: encodeFunctionData({ abi: subscriptionFactoryArtifact.abi, functionName: "deploy", args: [termsArgument(terms)] }),
    }));
    if (receipt.status !== "success") throw new Error(`deploy reverted (tx ${hash})`);
  }
  const onChainNext = Number(await client.readContract({ address: pull, abi: subscriptionPullArtifact.abi, functionName: "nextPeriod" }));
  const existing = await findLiveCharge(db, subscription.id, index);
  if (existing && existing.status !== "sending") {
    // Recorded with the subscription in one transaction: only the next attempt's time is left to set.
    await transitionSubscription(db, subscription.merchantId, subscription.id, liveStatuses, {
      status: subscription.status,
      nextAttemptAt: nextPeriodStart(subscription, index),
      updatedAt: chainNow,
    });
    return "waiting";
  }
  if (onChainNext > index) {
    // Mined before a crash (or by the merchant): record it, never send it again.
    const mined = await findChargeReceipt(db, client, pull, index, existing);
    const charge = existing ?? (await newCharge(db, chain, due, index, terms.maxAmountPerPeriod, null, chainNow));
    if (!charge) return "waiting";
    await recordCharged(db, chain, due, charge, mined, chainNow);
    return "charged";
  }
  let charge = existing;
  if (!charge) {
    let price: LockedPrice | null = null;
    let amount = terms.maxAmountPerPeriod;
    if (due.priceAmount && due.priceCurrency) {
      // A fiat plan: this period's amount at the rate read now (by the chain's clock), never above the cap.
      const token = chain.tokens.find((t) => t.address?.toLowerCase() === subscription.tokenAddress.toLowerCase());
      if (!token) throw new Error(`Token ${subscription.tokenAddress} of ${subscription.subscriptionId} is not in the catalog`);
      price = await lockFiatPrice(chain, token, due.priceAmount, due.priceCurrency, chainNow);
      amount = price.amount;
      if (amount > terms.maxAmountPerPeriod) {
        await recordFailure(db, due, chainNow, "price_above_cap", { amount: amount.toString(), rate: price.rate });
        return "failed";
      }
    }
    const refused = await chargeRefused(client, wallet.account.address, pull, amount);
    if (refused) {
      await recordFailure(db, due, chainNow, refused);
      return "failed";
    }
    charge = await newCharge(db, chain, due, index, amount, price, chainNow);
    if (!charge) return "waiting";
  }
  const amount = BigInt(charge.amount);
  try {
    // Recorded (sent_transactions) before it is broadcast: a restart resumes this very transaction, never a second one.
    const { hash, receipt } = await sendManaged(
      db as Db,
      chain,
      client,
      key,
      { purpose: chargePurpose, purposeId: charge.id },
      async () => {
        const refused = await chargeRefused(client, wallet.account.address, pull, amount);
        if (refused) throw new ChargeRefused(refused);
        const data = encodeFunctionData({ abi: subscriptionPullArtifact.abi, functionName: "charge", args: [amount] });
        const gas = await client.estimateGas({ account: wallet.account.address, to: pull, data });
        return { to: pull, data, gas: (gas * 12n) / 10n };
      },
      { replaceAfterMs: env.TX_REPLACE_AFTER_SECONDS * 1000, waitMs: 60_000 },
    );
    if (receipt.status === "success") {
      await recordCharged(db, chain, due, charge, { hash, receipt }, chainNow);
      return "charged";
    }
    await updateCharge(db, charge.id, { status: "failed", txHash: hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, updatedAt: chainNow });
    await recordFailure(db, due, chainNow, "reverted");
    return "failed";
  } catch (error) {
    if (error instanceof TransactionStillPendingError || error instanceof FeeAboveCeilingError) {
      // In flight (or waiting for fees): the next run resumes it.
      await transitionSubscription(db, subscription.merchantId, subscription.id, liveStatuses, {
        status: subscription.status,
        nextAttemptAt: chainNow,
        updatedAt: chainNow,
      });
      return "waiting";
    }
    if (error instanceof ChargeRefused) {
      await updateCharge(db, charge.id, { status: "failed", updatedAt: chainNow });
      await recordFailure(db, due, chainNow, error.reason);
      return "failed";
    }
    throw error;
  }
}

const chargePurpose = "subscription_charge";
/** The operator key's other transactions for a subscription (sent_transactions purposes, by the subscription's row id). */
const deployPurpose = "subscription_deploy";
const cancelPurpose = "subscription_cancel";
const permitPurpose = "subscription_permit";

/**
 * Sends one of the operator key's transactions for a subscription (its contract's deploy, its
 * cancel, a relayed permit) the way its charges go: recorded before broadcast, its nonce picked
 * under the key's nonce lock (the sweeps and the charges share the key), resumed rather than sent
 * again after a restart.
 */
function sendAsOperator(db: DbOrTx, chain: Blockchain, key: Hex, purpose: string, purposeId: number, build: () => Promise<{ to: Address; data: Hex }>) {
  const client = chainClient(chain);
  const account = privateKeyToAccount(key);
  return sendManaged(
    db as Db,
    chain,
    client,
    key,
    { purpose, purposeId },
    async () => {
      const { to, data } = await build();
      const gas = await client.estimateGas({ account: account.address, to, data });
      return { to, data, gas: (gas * 12n) / 10n };
    },
    { replaceAfterMs: env.TX_REPLACE_AFTER_SECONDS * 1000, waitMs: 60_000 },
  );
}

class ChargeRefused extends Error {
  constructor(readonly reason: string) {
    super(`charge refused: ${reason}`);
  }
}

/** Why the contract would refuse `charge(amount)` now (its error's name), or null when it would pass: a refused charge costs no gas. */
async function chargeRefused(client: PublicClient, operator: Address, pull: Address, amount: bigint): Promise<string | null> {
  try {
    await client.simulateContract({ account: operator, address: pull, abi: subscriptionPullArtifact.abi, functionName: "charge", args: [amount] });
    return null;
  } catch (error) {
    const reverted =
      error instanceof BaseError ? (error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;
    if (!reverted) throw error;
    return reverted.data?.errorName ?? "reverted";
  }
}

/** The start of the period after `index`. */
function nextPeriodStart(subscription: Subscription, index: number): Date {
  return new Date(subscription.startsAt.getTime() + (index + 1) * subscription.periodSeconds * 1000);
}

/** Writes the period's charge (status sending) with its amount and, for a fiat plan, the rate it was converted at. */
async function newCharge(db: DbOrTx, chain: Blockchain, due: Due, index: number, amount: bigint, price: LockedPrice | null, now: Date) {
  const { subscription } = due;
  const wallet = await findWalletForChain(db, subscription.merchantId, chain.id);
  return insertCharge(db, {
    subscriptionId: subscription.id,
    merchantId: subscription.merchantId,
    blockchainId: chain.id,
    period: index,
    status: "sending",
    amount: amount.toString(),
    priceAmount: price?.priceAmount ?? null,
    priceCurrency: price?.priceCurrency ?? null,
    rate: price?.rate ?? null,
    rateSource: price?.rateSource ?? null,
    ratedAt: price ? now : null,
    confirmationThreshold: wallet?.confirmationThreshold ?? chain.defaultConfirmations,
    createdAt: now,
    updatedAt: now,
  });
}

type Mined = { hash: Hex; receipt: TransactionReceipt } | null;

/**
 * The transaction that charged `index` on the contract: one this gateway sent for the charge
 * (sent_transactions), else the contract's `Charged` event for the period (a charge sent by the
 * merchant, or before charges were recorded). Null when neither is found (the charge is still
 * recorded, without a transaction).
 */
async function findChargeReceipt(db: DbOrTx, client: PublicClient, pull: Address, index: number, charge: SubscriptionCharge | null): Promise<Mined> {
  if (charge) {
    for (const sent of await findSentFor(db, chargePurpose, charge.id)) {
      const receipt = await client.getTransactionReceipt({ hash: sent.hash as Hex }).catch(() => null);
      if (receipt?.status === "success") return { hash: sent.hash as Hex, receipt };
    }
  }
  try {
    const head = await client.getBlockNumber();
    const logs = await client.getContractEvents({
      address: pull,
      abi: subscriptionPullArtifact.abi,
      eventName: "Charged",
      args: { periodIndex: BigInt(index) },
      fromBlock: head > chargeLogLookback ? head - chargeLogLookback : 0n,
      toBlock: head,
    });
    const log = logs.at(-1);
    if (!log?.transactionHash) return null;
    return { hash: log.transactionHash, receipt: await client.getTransactionReceipt({ hash: log.transactionHash }) };
  } catch (error) {
    log.warn("looking up a subscription charge's transaction failed", { pull, period: index, error: String(error) });
    return null;
  }
}

/** How far back the Charged event of a charge mined without this gateway's record is looked for. */
const chargeLogLookback = 9_000n;

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
  alongside?: (tx: DbOrTx) => Promise<unknown>,
) {
  const { subscription } = due;
  let queued = false;
  const updated = await db.transaction(async (tx) => {
    const row = await transitionSubscription(tx, subscription.merchantId, subscription.id, liveStatuses, { status, updatedAt: now, ...values });
    if (row) queued = await recordSubscriptionHistory(tx, row, due.planId, kind, detail, now);
    // The charge is a fact of the chain: recorded even when the subscription changed meanwhile.
    if (alongside) await alongside(tx);
    return row;
  });
  if (queued) await notifyDeliveriesDue();
  return updated;
}

/**
 * A mined charge: its transfer (hash, block, confirmations against the merchant wallet's
 * threshold) on the charge, `charged` in the history and the webhook, the subscription active with
 * its next attempt at the next period's start, all in one transaction.
 */
async function recordCharged(db: DbOrTx, chain: Blockchain, due: Due, charge: SubscriptionCharge, mined: Mined, now: Date) {
  const { subscription } = due;
  const index = charge.period;
  const client = chainClient(chain);
  const head = mined ? await client.getBlockNumber() : 0n;
  const confirmations = mined ? Number(head - mined.receipt.blockNumber + 1n) : 0;
  const confirmed = mined ? confirmations >= charge.confirmationThreshold : true;
  const blockTimestamp = mined ? new Date(Number((await client.getBlock({ blockNumber: mined.receipt.blockNumber })).timestamp) * 1000) : null;
  await moveTo(
    db,
    due,
    "active",
    "charged",
    {
      period: index,
      amount: charge.amount,
      tx_hash: mined?.hash ?? null,
      ...(charge.rate ? { price_amount: charge.priceAmount, price_currency: charge.priceCurrency, rate: charge.rate } : {}),
    },
    now,
    {
      nextPeriod: index + 1,
      periodsCharged: subscription.periodsCharged + 1,
      // A mined charge proves the allowance (an approve the customer sent without the page's check): their mail may start.
      authorizedAt: subscription.authorizedAt ?? now,
      failingSince: null,
      nextAttemptAt: nextPeriodStart(subscription, index),
    },
    async (tx) => {
      const updated = await updateCharge(tx, charge.id, {
        status: confirmed ? "confirmed" : "pending",
        txHash: mined?.hash ?? null,
        blockNumber: mined?.receipt.blockNumber ?? null,
        blockHash: mined?.receipt.blockHash ?? null,
        gasUsed: mined?.receipt.gasUsed ?? null,
        confirmations,
        confirmedAt: confirmed ? now : null,
        updatedAt: now,
      });
      // Money moved into the merchant's wallet: booked with the payments (GET /api/transactions, the accounting export).
      if (mined && updated)
        await bookChargeTransfer(tx, chain, subscription, updated, { receipt: mined.receipt, blockTimestamp: blockTimestamp! }, updated.status, now);
    },
  );
}

/**
 * A failed charge (empty wallet, revoked allowance): payment_failed at the first failure, retried
 * every `chargeRetryMs`; past due once the plan's grace days have passed since then; canceled once
 * its past-due days have passed too.
 */
async function recordFailure(db: DbOrTx, due: Due, now: Date, reason: string, extra: Record<string, unknown> = {}) {
  const { subscription } = due;
  const since = subscription.failingSince ?? now;
  const pastDueAt = since.getTime() + due.graceDays * dayMs;
  const cancelAt = pastDueAt + due.pastDueDays * dayMs;
  const retry = new Date(now.getTime() + chargeRetryMs);
  if (!subscription.failingSince) {
    await moveTo(db, due, subscription.status, "payment_failed", { reason, ...extra }, now, { failingSince: since, nextAttemptAt: retry });
  } else if (now.getTime() >= cancelAt) {
    await moveTo(db, due, "canceled", "canceled", { reason: "past_due", last_failure: reason }, now, {
      canceledAt: now,
      cancelReason: "past_due",
      nextAttemptAt: now,
    });
  } else if (now.getTime() >= pastDueAt && subscription.status !== "past_due") {
    await moveTo(db, due, "past_due", "past_due", { reason, ...extra }, now, { nextAttemptAt: retry });
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
        const deployed = await sendAsOperator(db, chain, key, deployPurpose, subscription.id, async () => ({
          to: deployFactoryAddress(subscription, chain),
          data: encodeFunctionData({ abi: subscriptionFactoryArtifact.abi, functionName: "deploy", args: [termsArgument(subscriptionTerms(subscription))] }),
        }));
        if (deployed.receipt.status !== "success") throw new Error(`deploy reverted (tx ${deployed.hash})`);
      }
      const canceled = await client.readContract({ address: pull, abi: subscriptionPullArtifact.abi, functionName: "canceled" });
      if (!canceled) {
        const { hash, receipt } = await sendAsOperator(db, chain, key, cancelPurpose, subscription.id, async () => ({
          to: pull,
          data: encodeFunctionData({ abi: subscriptionPullArtifact.abi, functionName: "cancel" }),
        }));
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
 *
 * Gasless through the same rules as a payment's relay (lib/gasless): its gas limit is reserved
 * against the merchant's and everyone's hourly relay budgets first (a `gasless_relays` row of the
 * subscription's), refused with 429 RELAY_BUDGET_EXHAUSTED when either is used up (the subscribe
 * page then offers the approve transaction, whose gas the customer pays); once mined, its gas used
 * and cost are what counts; a permit never sent is forgotten and costs nothing.
 */
export async function submitPermit(db: DbOrTx, subscription: Subscription, chain: Blockchain, permit: { signature: Hex; deadline: number }): Promise<void> {
  const key = sweeperKey(chain);
  if (!key) throw new ApiError("CONFLICT", "Subscriptions are not available on this blockchain now.");
  if (!(liveStatuses as readonly string[]).includes(subscription.status))
    throw new ApiError("CONFLICT", `A ${subscription.status} subscription takes no authorization.`);
  const client = (() => {
    try {
      return chainClient(chain);
    } catch (error) {
      throw chainUnavailable(error, subscription);
    }
  })();
  const pull = subscription.pullAddress as Address;
  const code = await client.getCode({ address: pull }).catch((error: unknown) => {
    throw chainUnavailable(error, subscription);
  });
  if (code && code !== "0x")
    throw new ApiError("CONFLICT", "This subscription's contract is already deployed; the customer grants further allowance with an approve.");
  const operator = privateKeyToAccount(key).address;
  const { v, r, s } = parseSignature(permit.signature);
  const value = BigInt(serializeSubscription(subscription, "").authorization.value);
  const factory = deployFactoryAddress(subscription, chain);
  const args = [termsArgument(subscriptionTerms(subscription)), value, BigInt(permit.deadline), Number(v ?? 27n), r, s] as const;
  const refusedPermit = () =>
    validationError({ signature: ["The token refused this permit: sign the authorization shown (spender, value, the current nonce) before its deadline."] });
  let gasLimit: bigint;
  try {
    await client.simulateContract({ account: operator, address: factory, abi: subscriptionFactoryArtifact.abi, functionName: "deployWithPermit", args });
    const data = encodeFunctionData({ abi: subscriptionFactoryArtifact.abi, functionName: "deployWithPermit", args });
    gasLimit = ((await client.estimateGas({ account: operator, to: factory, data })) * 12n) / 10n;
  } catch (error) {
    if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError)) throw refusedPermit();
    throw chainUnavailable(error, subscription);
  }
  const now = new Date();
  const reserved = await reserveRelay(
    db as Db,
    {
      paymentOrderId: null,
      subscriptionId: subscription.id,
      merchantId: subscription.merchantId,
      blockchainId: chain.id,
      tokenAddress: subscription.tokenAddress.toLowerCase(),
      fromAddress: subscription.subscriberAddress.toLowerCase(),
      // Keyed by the subscription's terms and the signature: the same permit is relayed once; after one
      // the chain refused (its gas spent and counted), the customer may sign again.
      authorizationNonce: `permit:${subscription.termsId.toLowerCase()}:${keccak256(permit.signature)}`,
      value: value.toString(),
      gasLimit,
    },
    relayBudgets(),
    now,
  );
  if ("duplicate" in reserved) throw new ApiError("CONFLICT", "This subscription's permit is already being submitted.");
  if ("exhausted" in reserved) {
    observeGaslessRelay(chain.slug, "refused_budget");
    log.warn("subscription permit refused: relay gas budget used up", {
      subscription_id: subscription.subscriptionId,
      budget: reserved.exhausted,
      retry_after: reserved.retryAfterSeconds,
    });
    throw relayBudgetExhausted(reserved.exhausted, reserved.retryAfterSeconds);
  }
  const { relay } = reserved;
  try {
    const { hash, receipt } = await sendManaged(
      db as Db,
      chain,
      client,
      key,
      { purpose: permitPurpose, purposeId: relay.id },
      async () => {
        // Under the key's lock: another permit of this subscription (signed again), or the charging task, may have
        // deployed it since the simulation; a second deploy would only revert at the gateway's cost.
        const deployed = await client.getCode({ address: pull });
        if (deployed && deployed !== "0x") throw new PermitOvertaken();
        return { to: factory, data: encodeFunctionData({ abi: subscriptionFactoryArtifact.abi, functionName: "deployWithPermit", args }), gas: gasLimit };
      },
      { replaceAfterMs: env.TX_REPLACE_AFTER_SECONDS * 1000, waitMs: 60_000 },
    );
    const mined = await recordRelayOutcome(db, chain.slug, relay.id, hash, receipt, "deployWithPermit");
    if (!mined) throw validationError({ signature: ["The permit was refused on chain."] });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof TransactionStillPendingError) {
      // In flight: kept, counted at its gas limit; the next attempt finds the contract deployed, or resumes it.
      throw new ApiError("SERVICE_UNAVAILABLE", "The authorization was sent but is not mined yet; try again in a minute.");
    }
    // Never sent (overtaken, fees above the ceiling, refused by the node, no RPC): forgotten, costing nothing.
    await deleteRelay(db, relay.id);
    if (error instanceof PermitOvertaken)
      throw new ApiError("CONFLICT", "This subscription's contract is already deployed; the customer grants further allowance with an approve.");
    throw chainUnavailable(error, subscription);
  }
}

/** The pull contract was deployed while this permit waited for the key: nothing is sent. */
class PermitOvertaken extends Error {}

/** A chain that could not be read or written for a public request: 503 in the error envelope, logged with its cause. */
function chainUnavailable(error: unknown, subscription: Subscription): ApiError {
  log.warn("subscription permit: the chain did not answer", { subscription_id: subscription.subscriptionId, error: String(error) });
  return new ApiError("SERVICE_UNAVAILABLE", "The blockchain could not be reached to submit the authorization; try again in a minute.");
}

/**
 * How long a mined charge stays under watch, like a payment (lib/engine/reorg-recheck.ts): while it
 * is pending, then 2 × its confirmation threshold blocks, at least 64.
 */
const chargeRecheckBlocks = (charge: SubscriptionCharge) => BigInt(Math.max(2 * charge.confirmationThreshold, 64));

/**
 * Counts the confirmations of mined charges against the merchant wallet's threshold (pending →
 * confirmed) and compares their blocks with the chain's: a charge whose block was replaced is found
 * again by its transaction's receipt (re-included elsewhere: its new block, counted again), or
 * else marked `reorged`, the subscription's count and next period taken back (the contract's were,
 * with the block), `charge_reorged` in the history and the `subscription.charge_reorged` webhook,
 * and its next attempt set to now so the period is charged again while it runs. A block lookup
 * that fails throws (never a reorg on a guess).
 */
export async function trackCharges(db: DbOrTx, chain: Blockchain, client: PublicClient, head: bigint, chainNow: Date) {
  const done = { confirmed: [] as string[], reorged: [] as string[] };
  const charges = (await findChargesToTrack(db, chain.id, head > 512n ? head - 512n : 0n)).filter(
    (c) => c.blockNumber !== null && c.blockHash !== null && (c.status === "pending" || head - c.blockNumber < chargeRecheckBlocks(c)),
  );
  if (charges.length === 0) return done;
  const hashes = await canonicalHashes(
    client,
    charges.map((c) => c.blockNumber!),
    head,
  );
  for (const charge of charges) {
    let { blockNumber, blockHash } = charge as { blockNumber: bigint; blockHash: string };
    if (isReorgedOut(hashes, blockNumber, blockHash)) {
      const receipt = charge.txHash ? await client.getTransactionReceipt({ hash: charge.txHash as Hex }).catch(() => null) : null;
      if (!receipt || receipt.status !== "success" || receipt.blockNumber > head) {
        const id = await markChargeReorged(db, charge, chainNow);
        if (id) done.reorged.push(`${id}#${charge.period}`);
        continue;
      }
      ({ blockNumber, blockHash } = receipt);
    }
    const confirmations = Number(head - blockNumber + 1n);
    const confirmed = charge.status === "confirmed" || confirmations >= charge.confirmationThreshold;
    await updateCharge(db, charge.id, {
      blockNumber,
      blockHash,
      confirmations,
      status: confirmed ? "confirmed" : "pending",
      confirmedAt: confirmed ? (charge.confirmedAt ?? chainNow) : null,
      updatedAt: chainNow,
    });
    await syncChargeTransfer(db, charge.id, { status: confirmed ? "confirmed" : "pending", blockNumber, blockHash }, chainNow);
    if (confirmed && charge.status === "pending") {
      const found = await findMerchantSubscriptionById(db, charge.merchantId, charge.subscriptionId);
      if (found) done.confirmed.push(`${found.subscription.subscriptionId}#${charge.period}`);
    }
  }
  return done;
}

/** A charge whose transaction is gone from the chain: see trackCharges. The subscription's public id, or null when another run got there first. */
async function markChargeReorged(db: DbOrTx, charge: SubscriptionCharge, now: Date): Promise<string | null> {
  let queued = false;
  const id = await db.transaction(async (tx) => {
    if (!(await markChargeStatus(tx, charge.id, ["pending", "confirmed"], { status: "reorged", reorgedAt: now, confirmations: 0, updatedAt: now })))
      return null;
    await syncChargeTransfer(tx, charge.id, { status: "reorged" }, now);
    const found = await findMerchantSubscriptionById(tx, charge.merchantId, charge.subscriptionId);
    if (!found) return null;
    const { subscription, planId } = found;
    const latest = subscription.nextPeriod === charge.period + 1;
    const live = (liveStatuses as readonly string[]).includes(subscription.status);
    const updated = await transitionSubscription(tx, subscription.merchantId, subscription.id, subscriptionStatuses, {
      status: subscription.status,
      periodsCharged: Math.max(0, subscription.periodsCharged - 1),
      ...(latest ? { nextPeriod: charge.period } : {}),
      // Charged again while its period runs (the contract forfeits a period once it has passed).
      ...(latest && live ? { nextAttemptAt: now } : {}),
      updatedAt: now,
    });
    if (!updated) return null;
    queued = await recordSubscriptionHistory(
      tx,
      updated,
      planId,
      "charge_reorged",
      { period: charge.period, amount: charge.amount, tx_hash: charge.txHash, block_number: charge.blockNumber?.toString() ?? null },
      now,
    );
    return subscription.subscriptionId;
  });
  if (queued) await notifyDeliveriesDue();
  log.warn("subscription charge reorged out", { subscription_id: id, period: charge.period, tx_hash: charge.txHash });
  return id;
}
