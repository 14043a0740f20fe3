import "server-only";
import type { z } from "zod";
import type { Db } from "@/lib/db/types";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";

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
export interface Task<P = undefined> {
  /** kebab-case and unique: it names the loop, the advisory lock and the Inngest function. */
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /**
   * `exclusive` (default): at most one run at a time across every instance sharing the database,
   * guarded by a Postgres advisory lock. `shared`: each instance runs it side by side; the task
   * itself divides the work (e.g. `FOR UPDATE SKIP LOCKED`).
   */
  concurrency?: "exclusive" | "shared";
  /** Schema of the data a triggered run takes, when it takes any. */
  payload?: z.ZodType<P>;
  run(db: Db, context: TaskContext<P>): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds tasks of any payload
export type AnyTask = Task<any>;

export function defineTask<P = undefined>(task: Task<P>): Task<P> {
  return task;
}

/**
 * Delivers due webhooks until none are left. Shared: several instances claim disjoint rows
 * (SKIP LOCKED), so the work spreads instead of waiting on one lock holder. The interval is the
 * backstop; recording an event kicks it at once (lib/jobs/notify.ts).
 */
export const deliverWebhooksTask = defineTask({
  name: "deliver-webhooks",
  intervalMs: 1000,
  concurrency: "shared",
  async run(db, { signal }) {
    await drainDueWebhooks(db, { signal });
  },
});

/** What the local driver runs. Other domains add their tasks here. */
export const localTasks: AnyTask[] = [deliverWebhooksTask];
