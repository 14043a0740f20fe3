import "server-only";
import { registeredTasks } from "../../registry";
import { defineTask } from "../../tasks";
import { dispatchDueDeliveries } from "../dispatch";
import { deliverWebhook } from "./deliver-webhook";
import { cronFunctionForTask } from "./task-cron";
import { startChainWatches, watchChain } from "./watch-chain";

/**
 * Backstop for the after-commit hand-over (`notifyDeliveriesDue`, lib/jobs/kick.ts): any due
 * delivery not yet given to Inngest (a crash right after the commit, a redelivery) is dispatched
 * within a minute. This driver's own plumbing, so not in the registry: the local driver has no use
 * for it.
 */
export const dispatchWebhookDeliveriesTask = defineTask({
  name: "dispatch-webhook-deliveries",
  intervalMs: 60_000,
  async run(db) {
    await dispatchDueDeliveries(db);
  },
});

/**
 * Every function /api/inngest serves: the event-driven functions that registered tasks name, then
 * a cron function for each other registered task.
 */
export const functions = [
  deliverWebhook,
  cronFunctionForTask(dispatchWebhookDeliveriesTask),
  watchChain,
  startChainWatches,
  ...registeredTasks()
    .filter((task) => !task.inngestFunction)
    .map(cronFunctionForTask),
];
