import "server-only";
import { type Address, type Hex, type PublicClient } from "viem";
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
}

/**
 * Deploys-and-flushes the forwarders of confirmed orders so the funds reach the merchant's wallet.
 * A sweep is claimed with a conditional update (only one worker sends it), retried with backoff,
 * and never touches the order's status: the payment is confirmed whether or not it is swept.
 */
export async function sweepConfirmedDeposits(db: Db, chain: Blockchain, client: PublicClient, now = new Date(), policy: SweepPolicy = sweepPolicy(chain)): Promise<SweepResult> {
  const key = sweeperKey(chain);
  const result: SweepResult = { swept: [], failed: [], skipped: [] };
  if (!key || !chain.factory || !chain.rpcUrl) return result;
  // Every sandbox slug shares one devnet and this one key: the queue keeps their sweeps from racing on its nonce.
  const sweeper = serialWallet(chain, key);

  const due = await findDueSweeps(db, chain.id, now, new Date(now.getTime() - submittedLeaseMs));

  for (const { sweep, order } of due) {
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
      const plan = await planSweep(client, sweeper.address, order, chain, policy);
      if (!plan.send) {
        await updateSweep(db, sweep.id, { status: "skipped", lastError: plan.reason, updatedAt: new Date() });
        result.skipped.push(order.orderId);
        continue;
      }
      const { hash, receipt } = await sweeper.run(async (wallet) => {
        const hash = await wallet.writeContract({
          address: order.depositFactory as Address,
          abi: depositFactoryArtifact.abi,
          functionName: "deployAndFlush",
          args: plan.args,
          gas: plan.gas,
        });
        return { hash, receipt: await client.waitForTransactionReceipt({ hash, timeout: 60_000 }) };
      });
      if (receipt.status !== "success") throw new Error(`deployAndFlush reverted (tx ${hash})`);
      await updateSweep(db, sweep.id, { status: "succeeded", txHash: hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, lastError: null, updatedAt: new Date() });
      result.swept.push(order.orderId);
    } catch (error) {
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
