import "server-only";
import type { z } from "zod";
import { foldAllListCounts } from "@/lib/db/list-counts";
import type { Db } from "@/lib/db/types";
import { foldAllOrderDayTotals } from "@/lib/orders/queries";
import { runRetention } from "@/lib/retention/retention";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { nextDeliveryDueAt } from "@/lib/webhooks/queries";
import { taskNames } from "./kick";

export interface TaskContext<P> {
  /** Aborted when the driver stops: long runs should return between units of work. */
  signal?: AbortSignal;
  /** Present when the run was triggered with data (validated with the task's `payload`). */
  payload?: P;
  /**
   * Resolves at the task's next kick: a run that keeps working for a while (the delivery loop,
   * waiting on slow receivers) picks up new work at once instead of after it returns.
   */
  kicked?: () => Promise<void>;
}

/** What a run may tell the local driver. */
export interface TaskRunResult {
  /**
   * Nothing is due before this many milliseconds: the loop sleeps that long instead of
   * `intervalMs` (a kick still wakes it at once). How idle loops stop polling.
   */
  nextRunInMs?: number;
}

/**
 * A background job: a plain, idempotent function plus how often to run it. Drivers are adapters
 * (STYLE rule 9): the local driver loops over tasks; the Inngest driver wraps them in functions.
 * Every task is listed once, in lib/jobs/registry.ts, which both drivers read.
 */
export interface Task<P = undefined> {
  /** kebab-case and unique: it names the loop, the advisory lock and the Inngest function. */
  name: string;
  /** Pause between the end of one run and the start of the next, unless the run says otherwise. */
  intervalMs: number;
  /**
   * `exclusive` (default): at most one run at a time across every instance sharing the database,
   * guarded by a Postgres advisory lock. `shared`: each instance runs it side by side; the task
   * itself divides the work (e.g. `FOR UPDATE SKIP LOCKED`).
   */
  concurrency?: "exclusive" | "shared";
  /**
   * The longest one run may take before the local driver's supervisor abandons it (its `signal` is
   * aborted) and starts the next; readiness counts a run past it as stuck. Default 5 minutes.
   */
  runDeadlineMs?: number;
  /** Schema of the data a triggered run takes, when it takes any. */
  payload?: z.ZodType<P>;
  /**
   * The Inngest driver serves a task as a cron function calling `run()` about every `intervalMs`,
   * unless this names the event-driven function (its id) that does the task's work there instead.
   */
  inngestFunction?: string;
  run(db: Db, context: TaskContext<P>): Promise<void | TaskRunResult>;
}

/** A task of any payload, as lists hold them (`run` is a method, so its parameter is bivariant). */
export type AnyTask = Task<unknown>;

export function defineTask<P = undefined>(task: Task<P>): Task<P> {
  return task;
}

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
