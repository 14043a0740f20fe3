import "server-only";
import { listBlockchains } from "@/lib/chains/catalog";
import { taskNames } from "@/lib/jobs/kick";
import { defineTask } from "@/lib/jobs/tasks";
import { log } from "@/lib/log";
import { chargeDueSubscriptions } from "@/lib/subscriptions/charge";

/**
 * Charges due subscriptions on every chain (lib/subscriptions/charge.ts). Exclusive, and each
 * subscription is claimed by a conditional update before its attempt, so a second instance or a
 * run after a restart never attempts one at the same time; the contract is read before each
 * charge, so a charge mined before a crash is recorded, not repeated.
 */
export const chargeSubscriptionsTask = defineTask({
  name: taskNames.chargeSubscriptions,
  intervalMs: 60_000,
  concurrency: "exclusive",
  async run(db) {
    for (const chain of listBlockchains().filter((c) => c.rpcUrl)) {
      try {
        await chargeDueSubscriptions(db, chain);
      } catch (error) {
        // One chain's provider failing does not hold up the others; its subscriptions wait for the next run.
        log.warn("charging subscriptions failed", { chain: chain.slug, error: String(error) });
      }
    }
  },
});
