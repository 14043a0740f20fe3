import "server-only";
import type { z } from "zod";
import type { Db } from "@/lib/db/types";

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
 * The runtime knows no task: the engine defines every one and lists them once
 * (lib/engine/registry.ts), and hands that list to both drivers.
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
   * unless this names the function (its id) that does the task's work there instead:
   * `taskLoopFunctionId` (lib/jobs/inngest/task-loop.ts) runs it in a loop under the local driver's
   * policy (lib/jobs/run-policy.ts); another id names an event-driven function of the engine's.
   */
  inngestFunction?: string;
  run(db: Db, context: TaskContext<P>): Promise<void | TaskRunResult>;
}

/** The Inngest function that runs the tasks naming it (`Task.inngestFunction`) in a loop: lib/jobs/inngest/task-loop.ts. */
export const taskLoopFunctionId = "task-loop";

/** A task of any payload, as lists hold them (`run` is a method, so its parameter is bivariant). */
export type AnyTask = Task<unknown>;

export function defineTask<P = undefined>(task: Task<P>): Task<P> {
  return task;
}
