import "server-only";
import { getDb } from "@/lib/db/client";
import type { AnyTask } from "../tasks";
import { inngest } from "./client";

/** A cron expression running about every `intervalMs` (cron's granularity is one minute). */
export function cronFor(intervalMs: number): string {
  const minutes = Math.max(1, Math.round(intervalMs / 60_000));
  return minutes === 1 ? "* * * * *" : `*/${Math.min(minutes, 59)} * * * *`;
}

/**
 * The Inngest adapter for a periodic task: a cron function whose one step is the task's `run()`.
 * Inngest runs at most one of them at a time (`concurrency: 1`), the counterpart of the local
 * driver's advisory lock.
 */
export function cronFunctionForTask(task: AnyTask) {
  return inngest.createFunction(
    { id: `task-${task.name}`, retries: 0, concurrency: { limit: 1 }, triggers: [{ cron: cronFor(task.intervalMs) }] },
    async ({ step }) => {
      await step.run(task.name, async () => {
        await task.run(await getDb(), {});
      });
    },
  );
}
