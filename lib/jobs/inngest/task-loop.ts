import "server-only";
import { eventType } from "inngest";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { describeError, log } from "@/lib/log";
import { configuredBackoff, defaultRunDeadlineMs, nextRun, retryInMsOf, runWithDeadline, type BackoffPolicy } from "../run-policy";
import { taskLoopFunctionId, type AnyTask } from "../tasks";
import { inngest } from "./client";

export { taskLoopFunctionId };

/** Run the task now; the run schedules its next one itself. `consecutiveErrors` carries the failure streak from run to run. */
export const taskLoopRequested = eventType("gateway/task.loop-requested", {
  schema: z.object({ task: z.string(), consecutiveErrors: z.number().int().min(0).optional() }),
});

export interface TaskLoopOptions {
  /** Default: the configured backoff (TASK_RETRY_MAX_SECONDS), as the local driver's. */
  backoff?: BackoffPolicy;
}

/**
 * The Inngest counterpart of the local driver's supervised loop, under the same policy
 * (lib/jobs/run-policy.ts `nextRun`): one run in a step, with the task's deadline; a run that
 * throws is caught and counted, and the loop sleeps its backoff; a run that succeeds sleeps what it
 * named, else the task's interval. Then it sends its own next event. `singleton` (skip) keeps
 * exactly one loop per task however often it is (re)started. `tasks` is the engine's registry.
 */
export function taskLoopFunction(tasks: () => readonly AnyTask[], options: TaskLoopOptions = {}) {
  return inngest.createFunction(
    { id: taskLoopFunctionId, retries: 0, singleton: { key: "event.data.task", mode: "skip" }, triggers: [taskLoopRequested] },
    async ({ event, step }) => {
      const name = event.data.task;
      const run = await step.run("run", async () => {
        const task = tasks().find((t) => t.name === name && t.inngestFunction === taskLoopFunctionId);
        if (!task) return { skipped: true as const, reason: "no such task runs in a loop" };
        const db = await getDb();
        let outcome: Parameters<typeof nextRun>[0];
        let error: string | undefined;
        try {
          const result = await runWithDeadline(task.name, task.runDeadlineMs ?? defaultRunDeadlineMs, (signal) => task.run(db, { signal }));
          outcome = { ok: true, nextRunInMs: result?.nextRunInMs };
        } catch (thrown) {
          outcome = { ok: false, retryInMs: retryInMsOf(thrown) };
          error = String(describeError(thrown).error);
          log.warn("task failing; retrying with backoff", { task: task.name, consecutive_errors: (event.data.consecutiveErrors ?? 0) + 1, error });
        }
        const next = nextRun(outcome, event.data.consecutiveErrors ?? 0, task, options.backoff ?? configuredBackoff());
        return { skipped: false as const, ok: outcome.ok, ...(error === undefined ? {} : { error }), ...next };
      });
      if (run.skipped) return run;
      await step.sleep("wait", `${run.sleepMs}ms`);
      await step.sendEvent("schedule-next", taskLoopRequested.create({ task: name, consecutiveErrors: run.consecutiveErrors }));
      return run;
    },
  );
}

/** Every minute, (re)start the loop of each task that runs in one; `singleton` skips loops that are alive. */
export function startTaskLoopsFunction(tasks: () => readonly AnyTask[]) {
  return inngest.createFunction({ id: "start-task-loops", retries: 0, triggers: [{ cron: "* * * * *" }] }, async ({ step }) => {
    const names = tasks()
      .filter((task) => task.inngestFunction === taskLoopFunctionId)
      .map((task) => task.name);
    if (names.length)
      await step.sendEvent(
        "start",
        names.map((task) => taskLoopRequested.create({ task })),
      );
    return { started: names };
  });
}
