import "server-only";
import { chainTasks } from "@/lib/engine/tasks";
import { deliverWebhooksTask, foldTotalsTask, retentionTask, type AnyTask } from "./tasks";

/**
 * Every background task, the one list both drivers read: the local driver runs each in its own
 * loop (lib/jobs/start.ts); the Inngest driver serves each as a cron function, or leaves it to the
 * event-driven function the task names (lib/jobs/inngest/functions). Built on call, because the
 * chain tasks follow the catalog, which knows the sandbox devnet's URL only once it is up.
 */
export function registeredTasks(): AnyTask[] {
  return [deliverWebhooksTask, retentionTask, foldTotalsTask, ...chainTasks()];
}
