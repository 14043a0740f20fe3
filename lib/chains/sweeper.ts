import "server-only";
import { decodeFunctionData, encodeFunctionData, parseEventLogs, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import { depositFactoryArtifact, depositFactoryV2Artifact } from "./contract-artifacts";
import {
  addSweepGas,
  claimSweep,
  highestTransferBlocks,
  deferPendingSweep,
  findBroadcastSweeps,
  findDueSweeps,
  markSubmittedSweepSucceeded,
  noteSweepBroadcast,
  updateSweep,
} from "./queries";
import { devnetSweeper } from "./sandbox-devnet";
import { redactUrls } from "@/lib/redact";
import { consume } from "@/lib/rate-limit/fixed-window";
import { serialWallet } from "./serial-sender";
import { planSweep, sweepPolicy, type SweepPlan, type SweepPolicy } from "./sweep-policy";
import { finalityHead } from "./finality";
import { withNonceLock } from "./nonce-lock";
import { FeeAboveCeilingError, sendManaged, TransactionStillPendingError } from "./tx-sender";
import type { PaymentOrder, Sweep } from "@/lib/db/schema";

/** Retry delays after a failed sweep; the last one repeats until maxSweepAttempts. */
const retryDelaysMs = [5_000, 30_000, 120_000, 600_000, 3_600_000];
export const maxSweepAttempts = 10;
/** A sweep still "submitted" after this long belonged to a worker that died. */
const submittedLeaseMs = 10 * 60_000;

/** Who pays gas for sweeps: the devnet sweeper account in the sandbox, SWEEPER_PRIVATE_KEY in live mode, else nobody. */
export function sweeperKey(chain: Blockchain): Hex | null {
  if (chain.isDevnet) return devnetSweeper.privateKey;
  return (env.SWEEPER_PRIVATE_KEY as Hex | undefined) ?? null;
}

export interface SweepResult {
  swept: string[];
  failed: string[];
  /** Not worth or not safe to sweep (lib/chains/sweep-policy.ts); left for the merchant to flush. */
  skipped: string[];
  /** Put off without spending an attempt: the payment's block is not `safe` yet, the fee is above the ceiling, or the transaction is still in flight. */
  waiting: string[];
}

/**
 * How the sweeper's transactions are sent: `node` lets the devnet node pick nonce and fees
 * (serialWallet); `managed` signs locally with nonces, EIP-1559 fees within the chain's ceiling and
 * replacement (lib/chains/tx-sender.ts), the way of live networks.
 */
export type SweepSending = "node" | "managed";

export interface SweepOptions {
  policy?: SweepPolicy;
  sending?: SweepSending;
  /** Managed sending: replace a transaction not mined after this long (default TX_REPLACE_AFTER_SECONDS). */
  replaceAfterMs?: number;
  /** Managed sending: how long one run watches a transaction before leaving it in flight. */
  waitMs?: number;
}

/** How long a sweep waits before looking again when its payment's block is not `safe` yet, the fee is too high or its transaction is in flight. */
const waitRetryMs = (chain: Blockchain) => (chain.isDevnet ? 1_000 : 15_000);

class SkipSweep extends Error {}

type DueSweep = { sweep: Sweep; order: PaymentOrder };
type Sent = { hash: Hex; receipt: TransactionReceipt };

/** What one run needs to send sweeps on a chain. */
interface SweepRun {
  db: Db;
  chain: Blockchain;
  client: PublicClient;
  now: Date;
  key: Hex;
  sweeper: ReturnType<typeof serialWallet>;
  policy: SweepPolicy;
  sending: SweepSending;
  options: SweepOptions;
  result: SweepResult;
}

/**
 * Deploys-and-flushes the forwarders of confirmed orders so the funds reach the merchant's wallet.
 * A sweep is claimed with a conditional update (only one worker sends it), retried with backoff,
 * and never touches the order's status: the payment is confirmed whether or not it is swept.
 * Orders of a DepositFactoryV2 go in batches (grouped by the order's asset, up to the policy's
 * batch size, a group below it waiting up to its max wait); orders of the first factory one by one.
 */
export async function sweepConfirmedDeposits(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  now = new Date(),
  options: SweepOptions = {},
): Promise<SweepResult> {
  const policy = options.policy ?? sweepPolicy(chain);
  const sending = options.sending ?? (chain.isDevnet ? "node" : "managed");
  const key = sweeperKey(chain);
  const result: SweepResult = { swept: [], failed: [], skipped: [], waiting: [] };
  if (!key || !chain.factory || !chain.rpcUrl) return result;
  // Every sandbox slug shares one devnet and this one key: the queue keeps their sweeps from racing on its nonce.
  const sweeper = serialWallet(chain, key);

  if (sending === "node") await settleBroadcastSweeps(db, chain, client, result);
  const due = await findDueSweeps(db, chain.id, now, new Date(now.getTime() - submittedLeaseMs), Math.max(20, policy.batchSize * 5));
  if (due.length === 0) return result;
  // A payment is swept once its newest transfer's block is at or below the chain's `safe` block
  // (its confirmation threshold was met when the order was confirmed): docs/design/chain-engine.md › Sweeps.
  const safe = await finalityHead(client, chain, "safe", await client.getBlockNumber({ cacheTime: 0 }));
  const paymentBlocks = await highestTransferBlocks(
    db,
    due.map((d) => d.order.id),
  );
  const ready: DueSweep[] = [];
  for (const item of due) {
    const paymentBlock = paymentBlocks.get(item.order.id);
    if (item.sweep.status === "pending" && paymentBlock !== undefined && paymentBlock > safe) {
      await deferPendingSweep(db, item.sweep.id, new Date(now.getTime() + waitRetryMs(chain)));
      result.waiting.push(item.order.orderId);
    } else ready.push(item);
  }
  if (ready.length === 0) return result;

  // The sweep gas-price ceiling (SWEEP_MAX_GAS_PRICE_GWEI): above it nothing is sent and no attempt is spent.
  if (policy.maxGasPrice !== null && (await client.getGasPrice()) > policy.maxGasPrice) {
    for (const { sweep, order } of ready) {
      await deferPendingSweep(db, sweep.id, new Date(now.getTime() + waitRetryMs(chain)));
      result.waiting.push(order.orderId);
    }
    return result;
  }

  const run: SweepRun = { db, chain, client, now, key, sweeper, policy, sending, options, result };
  const groups = new Map<string, DueSweep[]>();
  for (const item of ready) {
    if (item.order.depositFactoryVersion < 2) {
      await sweepAlone(run, item);
      continue;
    }
    const asset = item.order.tokenAddress?.toLowerCase() ?? "native";
    groups.set(asset, [...(groups.get(asset) ?? []), item]);
  }
  for (const group of groups.values()) {
    // Only sweeps never tried since they were armed wait for company (a retry, a transaction to resume,
    // a reorged sweep go at once); they wait from when they were armed, and the group goes once its oldest has waited long enough.
    const fresh = group.every(({ sweep }) => sweep.status === "pending" && sweep.attempts === 0 && sweep.lastError === null);
    if (fresh && group.length < policy.batchSize && policy.batchMaxWaitMs > 0) {
      const oldest = Math.min(...group.map(({ sweep }) => sweep.updatedAt.getTime()));
      if (now.getTime() - oldest < policy.batchMaxWaitMs) {
        for (const { sweep, order } of group) {
          await deferPendingSweep(db, sweep.id, new Date(oldest + policy.batchMaxWaitMs));
          result.waiting.push(order.orderId);
        }
        continue;
      }
    }
    for (let i = 0; i < group.length; i += policy.batchSize) await sweepBatch(run, group.slice(i, i + policy.batchSize));
  }
  return result;
}

/**
 * Sweeps whose transaction the node took before their worker died (a kill -9 between the broadcast
 * and the receipt): a transaction mined successfully settles them at once, with its hash, gas and
 * block, instead of the sweep being sent again after its lease into a deposit address that is empty
 * by then (`skipped`, with no transaction: issue 50). A deposit whose flush failed inside a batch, a
 * reverted transaction or one not mined yet is left to the lease, as before.
 */
async function settleBroadcastSweeps(db: Db, chain: Blockchain, client: PublicClient, result: SweepResult): Promise<void> {
  const broadcast = await findBroadcastSweeps(db, chain.id);
  const byHash = new Map<string, typeof broadcast>();
  for (const row of broadcast) byHash.set(row.sweep.txHash!, [...(byHash.get(row.sweep.txHash!) ?? []), row]);
  for (const [hash, rows] of byHash) {
    const receipt = await client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null);
    if (!receipt || receipt.status !== "success") continue;
    const failed = new Set<string>();
    for (const event of parseEventLogs({ abi: depositFactoryV2Artifact.abi, eventName: "FlushFailed", logs: receipt.logs }))
      failed.add(event.args.forwarder.toLowerCase());
    const count = BigInt(rows.length);
    const share = { gas: receipt.gasUsed / count, costWei: (receipt.gasUsed * receipt.effectiveGasPrice) / count };
    for (const { sweep, order } of rows) {
      if (failed.has(order.receivingAddress.toLowerCase())) continue;
      if (!(await markSubmittedSweepSucceeded(db, sweep.id, { txHash: hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash }, new Date())))
        continue;
      await addSweepGas(db, sweep.id, share, true);
      result.swept.push(order.orderId);
    }
  }
}

/** Per-merchant budget: over it, the sweep waits for the next window without spending an attempt. */
async function withinMerchantBudget(run: SweepRun, { sweep, order }: DueSweep): Promise<boolean> {
  if (run.policy.perMerchantPerHour <= 0) return true;
  const quota = await consume(run.db, `sweep:${order.merchantId}`, run.policy.perMerchantPerHour, 60 * 60 * 1000, run.now);
  if (!quota.exceeded) return true;
  await deferPendingSweep(run.db, sweep.id, new Date(quota.reset * 1000));
  return false;
}

/** A first-version order: one deployAndFlush transaction of its own. */
async function sweepAlone(run: SweepRun, { sweep, order }: DueSweep): Promise<void> {
  const { db, chain, client, key, sweeper, policy, options } = run;
  if (!(await withinMerchantBudget(run, { sweep, order }))) return;
  const claimed = await claimSweep(db, sweep, run.now);
  if (!claimed) return;
  try {
    let sent: Sent;
    if (run.sending === "managed") {
      // A sweep with a transaction in flight (a restart, a run that stopped watching) is watched again, not planned and sent anew.
      const build = async () => {
        const plan = await planSweep(client, sweeper.address, order, chain, policy);
        if (!plan.send) throw new SkipSweep(plan.reason);
        const data = encodeFunctionData({ abi: depositFactoryArtifact.abi, functionName: "deployAndFlush", args: plan.args as never });
        return { to: order.depositFactory as Address, data, gas: plan.gas };
      };
      const replaceAfterMs = options.replaceAfterMs ?? env.TX_REPLACE_AFTER_SECONDS * 1000;
      sent = await sendManaged(db, chain, client, key, { purpose: "sweep", purposeId: sweep.id }, build, { replaceAfterMs, waitMs: options.waitMs ?? 60_000 });
    } else {
      const plan = await planSweep(client, sweeper.address, order, chain, policy);
      if (!plan.send) throw new SkipSweep(plan.reason);
      sent = await sweeper.run(async (wallet) => {
        // The node picks the nonce; the key's nonce lock keeps another instance's managed send from picking it too.
        const hash = await withNonceLock(db, chain, sweeper.address, () =>
          wallet.writeContract({
            address: order.depositFactory as Address,
            abi: depositFactoryArtifact.abi,
            functionName: "deployAndFlush",
            args: plan.args,
            gas: plan.gas,
          }),
        );
        await noteSweepBroadcast(db, [claimed.id], hash);
        return { hash, receipt: await client.waitForTransactionReceipt({ hash, timeout: 60_000 }) };
      });
    }
    const { hash, receipt } = sent;
    if (receipt.status !== "success") throw new Error(`deployAndFlush reverted (tx ${hash})`);
    await markSwept(run, claimed, order, sent, { gas: receipt.gasUsed, costWei: receipt.gasUsed * receipt.effectiveGasPrice });
  } catch (error) {
    await settleFailure(run, claimed, order, error);
  }
}

async function markSwept(run: SweepRun, sweep: Sweep, order: PaymentOrder, { hash, receipt }: Sent, share: { gas: bigint; costWei: bigint }): Promise<void> {
  await updateSweep(run.db, sweep.id, {
    status: "succeeded",
    txHash: hash,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    lastError: null,
    updatedAt: new Date(),
  });
  await addSweepGas(run.db, sweep.id, share, true);
  run.result.swept.push(order.orderId);
}

/** A claimed sweep that did not go through: skipped, waiting (attempt given back) or failed (retried with backoff). */
async function settleFailure(run: SweepRun, claimed: Sweep, order: PaymentOrder, error: unknown): Promise<void> {
  const { db, chain, result } = run;
  if (error instanceof SkipSweep) {
    await updateSweep(db, claimed.id, { status: "skipped", lastError: error.message, updatedAt: new Date() });
    result.skipped.push(order.orderId);
    return;
  }
  if (error instanceof FeeAboveCeilingError || error instanceof TransactionStillPendingError || error instanceof NotInBatch) {
    // Not a failure: the attempt is given back and the sweep looks again soon.
    await updateSweep(db, claimed.id, {
      status: "pending",
      attempts: claimed.attempts - 1,
      lastError: error.message.slice(0, 500),
      nextAttemptAt: new Date(Date.now() + waitRetryMs(chain)),
      updatedAt: new Date(),
    });
    result.waiting.push(order.orderId);
    return;
  }
  const attempts = claimed.attempts;
  const delay = retryDelaysMs[Math.min(attempts - 1, retryDelaysMs.length - 1)]!;
  const giveUp = attempts >= maxSweepAttempts;
  log.warn("sweep failed", { order_id: order.orderId, attempts, ...describeError(error) });
  await updateSweep(db, claimed.id, {
    status: giveUp ? "failed" : "pending",
    lastError: redactUrls(error instanceof Error ? error.message : String(error)).slice(0, 500),
    nextAttemptAt: new Date(Date.now() + delay),
    updatedAt: new Date(),
  });
  result.failed.push(order.orderId);
}

/** The transaction that went out does not hold this deposit (a resumed batch made of other sweeps): it goes again, attempt given back. */
class NotInBatch extends Error {}

/**
 * DepositFactoryV2 orders of one asset: one flushBatch transaction deploys and flushes them all.
 * Each deposit is planned (and estimated) alone first, as a single sweep is; the batch contract
 * gives each flush at most the sweep gas cap and goes on past one that fails (FlushFailed), which
 * is retried like any failed sweep. The outcome per deposit is read back from the mined
 * transaction (its input and logs), so a resumed transaction is judged by what it really held.
 */
async function sweepBatch(run: SweepRun, items: DueSweep[]): Promise<void> {
  const { db, chain, client, key, sweeper, policy, options } = run;
  const claimedItems: Array<{ claimed: Sweep; order: PaymentOrder }> = [];
  for (const item of items) {
    if (!(await withinMerchantBudget(run, item))) continue;
    const claimed = await claimSweep(db, item.sweep, run.now);
    if (claimed) claimedItems.push({ claimed, order: item.order });
  }
  if (claimedItems.length === 0) return;
  const factory = claimedItems[0]!.order.depositFactory as Address;
  // Why a deposit was left out of the transaction built (skipped, or its estimate failed).
  const leftOut = new Map<number, unknown>();
  // Planned only when a transaction is to be built: a batch in flight is watched again, not planned anew
  // (its deposits may be empty already).
  const build = async () => {
    leftOut.clear();
    const planned: Array<Extract<SweepPlan, { send: true }>> = [];
    for (const { claimed, order } of claimedItems) {
      try {
        const plan = await planSweep(client, sweeper.address, order, chain, policy);
        if (!plan.send) throw new SkipSweep(plan.reason);
        planned.push(plan);
      } catch (error) {
        leftOut.set(claimed.id, error);
      }
    }
    if (planned.length === 0) throw new NothingToSend();
    const tokens = [...new Set(planned.flatMap((plan) => plan.args[2].map((t) => t.toLowerCase())))] as Address[];
    const deposits = planned.map((plan) => ({ destination: plan.args[0], salt: plan.args[1] }));
    const args = [deposits, tokens, policy.maxGas] as const;
    // Each deposit's own limit covers its share (they include a transaction's base cost each: headroom).
    const gas = planned.reduce((sum, plan) => sum + plan.gas, 0n);
    return { to: factory, data: encodeFunctionData({ abi: depositFactoryV2Artifact.abi, functionName: "flushBatch", args }), gas, args };
  };
  const settleLeftOut = async (otherwise: unknown) => {
    for (const { claimed, order } of claimedItems) await settleFailure(run, claimed, order, leftOut.get(claimed.id) ?? otherwise);
  };

  let sent: Sent;
  try {
    if (run.sending === "managed") {
      const replaceAfterMs = options.replaceAfterMs ?? env.TX_REPLACE_AFTER_SECONDS * 1000;
      // Recorded as the sweep of its lowest id: a batch of one is sent, resumed and reported exactly as a single sweep.
      const purposeId = Math.min(...claimedItems.map(({ claimed }) => claimed.id));
      sent = await sendManaged(
        db,
        chain,
        client,
        key,
        { purpose: "sweep", purposeId },
        async () => {
          const { to, data, gas } = await build();
          return { to, data, gas };
        },
        { replaceAfterMs, waitMs: options.waitMs ?? 60_000 },
      );
    } else {
      const { args, gas } = await build();
      sent = await sweeper.run(async (wallet) => {
        const hash = await withNonceLock(db, chain, sweeper.address, () =>
          wallet.writeContract({ address: factory, abi: depositFactoryV2Artifact.abi, functionName: "flushBatch", args, gas }),
        );
        await noteSweepBroadcast(
          db,
          claimedItems.map(({ claimed }) => claimed.id),
          hash,
        );
        return { hash, receipt: await client.waitForTransactionReceipt({ hash, timeout: 60_000 }) };
      });
    }
    if (sent.receipt.status !== "success") throw new Error(`flushBatch reverted (tx ${sent.hash})`);
  } catch (error) {
    await settleLeftOut(error);
    return;
  }

  const { hash, receipt } = sent;
  const transaction = await client.getTransaction({ hash });
  const { args: sentArgs } = decodeFunctionData({ abi: depositFactoryV2Artifact.abi, data: transaction.input });
  const inBatch = new Set(
    ((sentArgs?.[0] ?? []) as ReadonlyArray<{ destination: Address; salt: Hex }>).map((d) => `${d.destination.toLowerCase()}:${d.salt.toLowerCase()}`),
  );
  const failures = new Map<string, Hex>();
  for (const event of parseEventLogs({ abi: depositFactoryV2Artifact.abi, eventName: "FlushFailed", logs: receipt.logs })) {
    if (event.address.toLowerCase() === factory.toLowerCase()) failures.set(event.args.forwarder.toLowerCase(), event.args.reason);
  }
  // Each deposit's share: the transaction's gas over the deposits it held.
  const count = BigInt(Math.max(inBatch.size, 1));
  const share = { gas: receipt.gasUsed / count, costWei: (receipt.gasUsed * receipt.effectiveGasPrice) / count };
  for (const { claimed, order } of claimedItems) {
    if (!inBatch.has(`${order.depositDestination.toLowerCase()}:${order.depositSalt.toLowerCase()}`)) {
      await settleFailure(run, claimed, order, leftOut.get(claimed.id) ?? new NotInBatch(`Not in batch transaction ${hash}; sent again.`));
      continue;
    }
    const reason = failures.get(order.receivingAddress.toLowerCase());
    if (reason === undefined) {
      await markSwept(run, claimed, order, sent, share);
      continue;
    }
    await addSweepGas(db, claimed.id, share, false);
    await settleFailure(
      run,
      claimed,
      order,
      new Error(`Its flush failed inside batch transaction ${hash} (revert data ${reason.slice(0, 74)}); the other deposits were swept.`),
    );
  }
}

/** Every deposit of a batch was left out (skipped or not estimable): no transaction. */
class NothingToSend extends Error {}
