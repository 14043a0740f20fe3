import "server-only";
import { cronFunctionForTask } from "@/lib/jobs/inngest/task-cron";
import { startTaskLoopsFunction, taskLoopFunction } from "@/lib/jobs/inngest/task-loop";
import { defineTask, type AnyTask } from "@/lib/jobs/tasks";
import { registeredTasks } from "../registry";
import { deliverWebhook } from "./deliver-webhook";
import { dispatchDueDeliveries } from "./dispatch";

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

// The registry, kept while it lists the same tasks (the chain tasks keep state between their runs,
// as under the local driver), read again when the catalog changed (the sandbox devnet came up).
let kept: { names: string; tasks: AnyTask[] } | undefined;
function registry(): AnyTask[] {
  const fresh = registeredTasks();
  const names = fresh.map((task) => task.name).join(" ");
  if (kept?.names !== names) kept = { names, tasks: fresh };
  return kept.tasks;
}

/** The loop every chain's watcher runs in under Inngest (lib/jobs/inngest/task-loop.ts), and its cron starter. */
export const taskLoop = taskLoopFunction(registry);
export const startTaskLoops = startTaskLoopsFunction(registry);

/**
 * Every function /api/inngest serves: the event-driven functions that registered tasks name, the
 * task loop and its starter, then a cron function for each other registered task.
 */
export const functions = [
  deliverWebhook,
  cronFunctionForTask(dispatchWebhookDeliveriesTask),
  taskLoop,
  startTaskLoops,
  ...registry()
    .filter((task) => !task.inngestFunction)
    .map(cronFunctionForTask),
];
