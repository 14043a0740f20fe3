import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { runningLocalDriver } from "./start";
import { deliverWebhooksTask } from "./tasks";

/**
 * Call after committing a transaction that wrote webhook deliveries (an order transition via
 * `recordOrderEvent`, a redelivery): gets them sent now rather than at the next poll. Only an
 * accelerator: if it is lost (crash, error), the periodic run finds the deliveries anyway.
 */
export async function notifyDeliveriesDue(): Promise<void> {
  try {
    if (env.JOBS_DRIVER === "local") {
      (await runningLocalDriver())?.kick(deliverWebhooksTask.name);
    } else if (env.JOBS_DRIVER === "inngest") {
      const { dispatchDueDeliveries } = await import("./inngest/dispatch");
      await dispatchDueDeliveries(await getDb());
    }
  } catch (error) {
    log.warn("could not hand deliveries to the job driver; the next periodic run will", describeError(error));
  }
}
