import "server-only";
import { and, eq, lt, lte, or } from "drizzle-orm";
import { type Address, type Hex, type PublicClient } from "viem";
import { paymentOrders, sweeps } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import { depositFactoryArtifact } from "./contract-artifacts";
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

  const due = await db
    .select({ sweep: sweeps, order: paymentOrders })
    .from(sweeps)
    .innerJoin(paymentOrders, eq(paymentOrders.id, sweeps.paymentOrderId))
    .where(
      and(
        eq(sweeps.blockchainId, chain.id),
        or(
          and(eq(sweeps.status, "pending"), lte(sweeps.nextAttemptAt, now)),
          // a worker that died mid-sweep: deployAndFlush is idempotent, so send it again
          and(eq(sweeps.status, "submitted"), lt(sweeps.updatedAt, new Date(now.getTime() - submittedLeaseMs))),
        ),
      ),
    )
    .limit(20);

  for (const { sweep, order } of due) {
    // Per-merchant budget: over it, the sweep waits for the next window without spending an attempt.
    if (policy.perMerchantPerHour > 0) {
      const quota = await consume(db, `sweep:${order.merchantId}`, policy.perMerchantPerHour, 60 * 60 * 1000, now);
      if (quota.exceeded) {
        await db.update(sweeps).set({ nextAttemptAt: new Date(quota.reset * 1000) }).where(and(eq(sweeps.id, sweep.id), eq(sweeps.status, "pending")));
        continue;
      }
    }
    const [claimed] = await db
      .update(sweeps)
      .set({ status: "submitted", attempts: sweep.attempts + 1, updatedAt: now })
      .where(and(eq(sweeps.id, sweep.id), eq(sweeps.status, sweep.status), eq(sweeps.updatedAt, sweep.updatedAt)))
      .returning();
    if (!claimed) continue;
    try {
      const plan = await planSweep(client, sweeper.address, order, chain, policy);
      if (!plan.send) {
        await db.update(sweeps).set({ status: "skipped", lastError: plan.reason, updatedAt: new Date() }).where(eq(sweeps.id, sweep.id));
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
      await db.update(sweeps).set({ status: "succeeded", txHash: hash, lastError: null, updatedAt: new Date() }).where(eq(sweeps.id, sweep.id));
      result.swept.push(order.orderId);
    } catch (error) {
      const attempts = claimed.attempts;
      const delay = retryDelaysMs[Math.min(attempts - 1, retryDelaysMs.length - 1)]!;
      const giveUp = attempts >= maxSweepAttempts;
      log.warn("sweep failed", { order_id: order.orderId, attempts, ...describeError(error) });
      await db
        .update(sweeps)
        .set({
          status: giveUp ? "failed" : "pending",
          lastError: redactUrls(error instanceof Error ? error.message : String(error)).slice(0, 500),
          nextAttemptAt: new Date(Date.now() + delay),
          updatedAt: new Date(),
        })
        .where(eq(sweeps.id, sweep.id));
      result.failed.push(order.orderId);
    }
  }
  return result;
}
