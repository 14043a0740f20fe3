import "server-only";
import { describeError, log } from "@/lib/log";
import { processSlot } from "@/lib/process-singleton";

/**
 * The names of the tasks domain code wakes. The tasks themselves (lib/engine/registry.ts) carry the
 * same names; they live here so that waking one needs nothing of the tasks or the drivers.
 */
export const taskNames = {
  deliverWebhooks: "deliver-webhooks",
  sweepDeposits: "sweep-deposits",
  housekeeping: "housekeeping",
  retention: "retention",
  foldTotals: "fold-totals",
  chargeSubscriptions: "charge-subscriptions",
  watchChain: (slug: string) => `watch-chain-${slug}`,
} as const;

/**
 * The longest a quiet chain's watcher sleeps (lib/engine/tasks.ts). It sleeps until the
 * first pending deadline it knows of, so an order whose window closes sooner than this wakes it
 * (lib/orders/create-order.ts).
 */
export const quietChainBackstopMs = 60_000;

/** What the running job driver does when a task is kicked. */
export interface Kicker {
  kick(taskName: string): void | Promise<void>;
}

// Next.js may load this module more than once (instrumentation, where the driver starts, vs. the
// routes that kick): the registered driver is kept process-wide.
const registered = processSlot<Kicker>("jobKicker");

/**
 * Called by the job driver as it starts (lib/jobs/start.ts). Returns the undo, which leaves a
 * kicker registered since in place.
 */
export function registerKicker(kicker: Kicker): () => void {
  registered.set(kicker);
  return () => {
    if (registered.get() === kicker) registered.set(undefined);
  };
}

/**
 * "Run this task now rather than at its next turn": the local driver wakes the task's loop; the
 * Inngest driver hands due webhook deliveries over at once. Only an accelerator: without a driver
 * it does nothing, and an error is logged, never thrown, because the task's periodic run finds
 * the work anyway.
 */
export async function kick(taskName: string): Promise<void> {
  try {
    await registered.get()?.kick(taskName);
  } catch (error) {
    log.warn("could not kick a job; its next periodic run will do the work", { task: taskName, ...describeError(error) });
  }
}

/**
 * Call after committing a transaction that wrote webhook deliveries (an order transition via
 * `recordOrderEvent`, a redelivery): gets them sent now rather than at the next poll.
 */
export function notifyDeliveriesDue(): Promise<void> {
  return kick(taskNames.deliverWebhooks);
}
