import "server-only";
import { foldAllListCounts } from "@/lib/db/list-counts";
import { taskNames } from "@/lib/jobs/kick";
import { defineTask } from "@/lib/jobs/tasks";
import { foldAllOrderDayTotals } from "@/lib/orders/queries";
import { runRetention } from "@/lib/retention/retention";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { nextDeliveryDueAt } from "@/lib/webhooks/queries";

/** The longest an idle delivery loop sleeps: a backstop for deliveries no kick announced. */
export const deliveryIdleBackstopMs = 60_000;

/**
 * Delivers due webhooks until none are left or in flight (per receiver: a hanging receiver holds
 * only its own deliveries, and a kick during the run is picked up at once), then sleeps until the next delivery falls due (a
 * retry, a lease running out), at most `deliveryIdleBackstopMs`. Recording an event kicks it at
 * once (`notifyDeliveriesDue`, lib/jobs/kick.ts). Shared: several instances claim disjoint rows
 * (SKIP LOCKED), so the work spreads instead of waiting on one lock holder. Under Inngest, one
 * `deliver-webhook` run per delivery does this work.
 */
export const deliverWebhooksTask = defineTask({
  name: taskNames.deliverWebhooks,
  intervalMs: 1000,
  concurrency: "shared",
  inngestFunction: "deliver-webhook",
  async run(db, { signal, kicked }) {
    await drainDueWebhooks(db, { signal, wake: kicked });
    const due = await nextDeliveryDueAt(db);
    const wait = due ? due.getTime() - Date.now() : deliveryIdleBackstopMs;
    return { nextRunInMs: Math.min(deliveryIdleBackstopMs, Math.max(0, wait)) };
  },
});

/**
 * Retention (lib/retention): expired idempotency answers and sessions, and delivered webhooks past
 * WEBHOOK_PAYLOAD_RETENTION_DAYS, deleted in bounded batches. Exclusive: one instance at a time.
 */
export const retentionTask = defineTask({
  name: taskNames.retention,
  intervalMs: 10 * 60_000,
  concurrency: "exclusive",
  async run(db, { signal }) {
    await runRetention(db, { signal });
  },
});

/**
 * The lists' counts and the overview's per-day totals take in the changes written since the last
 * run (bounded batches), so what a list or the overview sums besides its folded rows stays a few
 * seconds' worth of writes. Exclusive: one instance at a time (concurrent folds would skip each
 * other anyway).
 */
export const foldTotalsTask = defineTask({
  name: taskNames.foldTotals,
  intervalMs: 30_000,
  concurrency: "exclusive",
  async run(db, { signal }) {
    await foldAllListCounts(db, { signal });
    await foldAllOrderDayTotals(db, { signal });
  },
});
