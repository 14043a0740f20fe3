import "server-only";
import { listBlockchains } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { defineTask } from "@/lib/jobs/tasks";
import { settlePayouts } from "@/lib/payouts/settle-payouts";

/** How often sent payout batches are looked at: a receipt or a confirmation is a block away at most. */
export const settlePayoutsIntervalMs = 3_000;

/** The task that settles payout batches on every chain with an RPC URL (lib/payouts/settle-payouts.ts). */
export function settlePayoutsTask() {
  return defineTask({
    name: "settle-payouts",
    intervalMs: settlePayoutsIntervalMs,
    concurrency: "exclusive",
    async run(db) {
      for (const chain of listBlockchains().filter((c) => c.rpcUrl)) await settlePayouts(db, chain, chainClient(chain));
    },
  });
}
