import "server-only";
import { chainTasks } from "@/lib/chains/chain-tasks";
import { defineTask } from "../../tasks";
import { dispatchDueDeliveries } from "../dispatch";
import { deliverWebhook } from "./deliver-webhook";
import { cronFunctionForTask } from "./task-cron";
import { startChainWatches, watchChain } from "./watch-chain";

/**
 * Backstop for the after-commit hand-over (lib/jobs/notify.ts): any due delivery not yet given
 * to Inngest (a crash right after the commit, a redelivery) is dispatched within a minute.
 */
export const dispatchWebhookDeliveriesTask = defineTask({
  name: "dispatch-webhook-deliveries",
  intervalMs: 60_000,
  async run(db) {
    await dispatchDueDeliveries(db);
  },
});

/** Every function /api/inngest serves. */
export const functions = [
  deliverWebhook,
  cronFunctionForTask(dispatchWebhookDeliveriesTask),
  watchChain,
  startChainWatches,
  ...chainTasks()
    .filter((task) => !task.name.startsWith("watch-chain-"))
    .map(cronFunctionForTask),
];
