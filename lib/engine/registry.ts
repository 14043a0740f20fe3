import "server-only";
import type { AnyTask } from "@/lib/jobs/tasks";
import { chargeSubscriptionsTask } from "./subscription-tasks";
import { chainTasks } from "./tasks";
import { deliverWebhooksTask, foldTotalsTask, retentionTask } from "./upkeep-tasks";
import { sendReceiptsTask, settleInvoicesTask } from "./invoice-tasks";

/**
 * Every background task, the one list both drivers are handed (lib/engine/start.ts): the local
 * driver runs each in its own loop; the Inngest driver serves each as a cron function, a task loop,
 * or leaves it to the event-driven function the task names (lib/engine/inngest/functions.ts).
 * Built on call, because the chain tasks follow the catalog, which knows the sandbox devnet's URL
 * only once it is up.
 */
export function registeredTasks(): AnyTask[] {
  return [deliverWebhooksTask, retentionTask, foldTotalsTask, ...chainTasks(), chargeSubscriptionsTask, settleInvoicesTask, sendReceiptsTask];
}
