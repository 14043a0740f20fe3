import "server-only";
import { encodeFunctionData, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import { depositFactoryArtifact } from "./contract-artifacts";
import { claimSweep, deferPendingSweep, findDueSweeps, updateSweep } from "./queries";
import { devnetSweeper } from "./sandbox-devnet";
import { redactUrls } from "@/lib/redact";
import { consume } from "@/lib/auth/rate-limit";
import { serialWallet } from "./serial-sender";
import { planSweep, sweepPolicy, type SweepPolicy } from "./sweep-policy";
import { finalityHead } from "./finality";
import { FeeAboveCeilingError, sendManaged, TransactionStillPendingError } from "./tx-sender";
import { highestTransferBlocks } from "@/lib/transactions/queries";

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

/**
 * Deploys-and-flushes the forwarders of confirmed orders so the funds reach the merchant's wallet.
 * A sweep is claimed with a conditional update (only one worker sends it), retried with backoff,
 * and never touches the order's status: the payment is confirmed whether or not it is swept.
 */
export async function sweepConfirmedDeposits(db: Db, chain: Blockchain, client: PublicClient, now = new Date(), options: SweepOptions = {}): Promise<SweepResult> {
  const policy = options.policy ?? sweepPolicy(chain);
  const sending = options.sending ?? (chain.isDevnet ? "node" : "managed");
  const key = sweeperKey(chain);
  const result: SweepResult = { swept: [], failed: [], skipped: [], waiting: [] };
  if (!key || !chain.factory || !chain.rpcUrl) return result;
  // Every sandbox slug shares one devnet and this one key: the queue keeps their sweeps from racing on its nonce.
  const sweeper = serialWallet(chain, key);

  const due = await findDueSweeps(db, chain.id, now, new Date(now.getTime() - submittedLeaseMs));
  if (due.length === 0) return result;
  // A payment is swept once its newest transfer's block is at or below the chain's `safe` block
  // (its confirmation threshold was met when the order was confirmed): docs/decisions.md › Finality per chain.
  const safe = await finalityHead(client, chain, "safe", await client.getBlockNumber({ cacheTime: 0 }));
  const paymentBlocks = await highestTransferBlocks(db, due.map((d) => d.order.id));

  for (const { sweep, order } of due) {
    const paymentBlock = paymentBlocks.get(order.id);
    if (sweep.status === "pending" && paymentBlock !== undefined && paymentBlock > safe) {
      await deferPendingSweep(db, sweep.id, new Date(now.getTime() + waitRetryMs(chain)));
      result.waiting.push(order.orderId);
      continue;
    }
    // Per-merchant budget: over it, the sweep waits for the next window without spending an attempt.
    if (policy.perMerchantPerHour > 0) {
      const quota = await consume(db, `sweep:${order.merchantId}`, policy.perMerchantPerHour, 60 * 60 * 1000, now);
      if (quota.exceeded) {
        await deferPendingSweep(db, sweep.id, new Date(quota.reset * 1000));
        continue;
      }
    }
    const claimed = await claimSweep(db, sweep, now);
    if (!claimed) continue;
    try {
      let sent: { hash: Hex; receipt: TransactionReceipt };
      if (sending === "managed") {
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
          const hash = await wallet.writeContract({
            address: order.depositFactory as Address,
            abi: depositFactoryArtifact.abi,
            functionName: "deployAndFlush",
            args: plan.args,
            gas: plan.gas,
          });
          return { hash, receipt: await client.waitForTransactionReceipt({ hash, timeout: 60_000 }) };
        });
      }
      const { hash, receipt } = sent;
      if (receipt.status !== "success") throw new Error(`deployAndFlush reverted (tx ${hash})`);
      await updateSweep(db, sweep.id, { status: "succeeded", txHash: hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, lastError: null, updatedAt: new Date() });
      result.swept.push(order.orderId);
    } catch (error) {
      if (error instanceof SkipSweep) {
        await updateSweep(db, sweep.id, { status: "skipped", lastError: error.message, updatedAt: new Date() });
        result.skipped.push(order.orderId);
        continue;
      }
      if (error instanceof FeeAboveCeilingError || error instanceof TransactionStillPendingError) {
        // Not a failure: the attempt is given back and the sweep looks again soon.
        await updateSweep(db, sweep.id, {
          status: "pending",
          attempts: claimed.attempts - 1,
          lastError: error.message.slice(0, 500),
          nextAttemptAt: new Date(Date.now() + waitRetryMs(chain)),
          updatedAt: new Date(),
        });
        result.waiting.push(order.orderId);
        continue;
      }
      const attempts = claimed.attempts;
      const delay = retryDelaysMs[Math.min(attempts - 1, retryDelaysMs.length - 1)]!;
      const giveUp = attempts >= maxSweepAttempts;
      log.warn("sweep failed", { order_id: order.orderId, attempts, ...describeError(error) });
      await updateSweep(db, sweep.id, {
        status: giveUp ? "failed" : "pending",
        lastError: redactUrls(error instanceof Error ? error.message : String(error)).slice(0, 500),
        nextAttemptAt: new Date(Date.now() + delay),
        updatedAt: new Date(),
      });
      result.failed.push(order.orderId);
    }
  }
  return result;
}
