import "server-only";
import type { z } from "zod";
import type { Db } from "@/lib/db/types";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { nextDeliveryDueAt } from "@/lib/webhooks/queries";

export interface TaskContext<P> {
  /** Aborted when the driver stops: long runs should return between units of work. */
  signal?: AbortSignal;
  /** Present when the run was triggered with data (validated with the task's `payload`). */
  payload?: P;
}

/**
 * A background job: a plain, idempotent function plus how often to run it. Drivers are adapters
 * (STYLE rule 9): the local driver loops over tasks; the Inngest driver wraps them in functions.
 */
/** What a run may tell the local driver. */
export interface TaskRunResult {
  /**
   * Nothing is due before this many milliseconds: the loop sleeps that long instead of
   * `intervalMs` (a kick still wakes it at once). How idle loops stop polling.
   */
  nextRunInMs?: number;
}

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
  /** Schema of the data a triggered run takes, when it takes any. */
  payload?: z.ZodType<P>;
  run(db: Db, context: TaskContext<P>): Promise<void | TaskRunResult>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds tasks of any payload
export type AnyTask = Task<any>;

export function defineTask<P = undefined>(task: Task<P>): Task<P> {
  return task;
}

/** The longest an idle delivery loop sleeps: a backstop for deliveries no kick announced. */
export const deliveryIdleBackstopMs = 60_000;

/**
 * Delivers due webhooks until none are left, then sleeps until the next delivery falls due (a
 * retry, a lease running out), at most `deliveryIdleBackstopMs`. Recording an event kicks it at
 * once (lib/jobs/notify.ts). Shared: several instances claim disjoint rows (SKIP LOCKED), so the
 * work spreads instead of waiting on one lock holder.
 */
export const deliverWebhooksTask = defineTask({
  name: "deliver-webhooks",
  intervalMs: 1000,
  concurrency: "shared",
  async run(db, { signal }) {
    await drainDueWebhooks(db, { signal });
    const due = await nextDeliveryDueAt(db);
    const wait = due ? due.getTime() - Date.now() : deliveryIdleBackstopMs;
    return { nextRunInMs: Math.min(deliveryIdleBackstopMs, Math.max(0, wait)) };
  },
});

/** What the local driver runs. Other domains add their tasks here. */
export const localTasks: AnyTask[] = [deliverWebhooksTask];
