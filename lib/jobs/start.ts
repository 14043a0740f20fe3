import "server-only";
import { kickOnNewHeads } from "@/lib/engine/tasks";
import { getDb } from "@/lib/db/client";
import { defaultBackoff } from "@/lib/engine/supervisor";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { processSlot } from "@/lib/process-singleton";
import { registerKicker } from "./kick";
import { startLocalDriver, type LocalDriver } from "./local/driver";
import { registeredTasks } from "./registry";
import type { AnyTask } from "./tasks";

// Next.js may load modules more than once (instrumentation vs. routes): the driver is a
// process-wide singleton, created on first use, never at import time.
const localDriver = processSlot<Promise<LocalDriver>>("localDriver");
const localKickerUndo = processSlot<() => void>("localKickerUndo");

/**
 * The process's local driver, started on first call with `tasks` (default: every registered task,
 * read now, so after the sandbox devnet is up the catalog knows its URL) and registered as the
 * kicker, so that `kick()` wakes its loops.
 */
export function ensureLocalDriver(tasks?: readonly AnyTask[]): Promise<LocalDriver> {
  return (
    localDriver.get() ??
    localDriver.set(
      getDb().then((db) => {
        const backoff = { baseMs: defaultBackoff.baseMs, capMs: env.TASK_RETRY_MAX_SECONDS * 1000 };
        const driver = startLocalDriver(tasks ?? registeredTasks(), { db, backoff });
        localKickerUndo.set(registerKicker(driver));
        log.info("local job driver started", { tasks: driver.taskNames });
        return driver;
      }),
    )
  );
}

/** The local driver if this process started one. */
export function runningLocalDriver(): Promise<LocalDriver> | undefined {
  return localDriver.get();
}

/** Stops the local driver, if running (tests, shutdown). */
export async function stopLocalDriver(): Promise<void> {
  const driver = localDriver.get();
  localDriver.set(undefined);
  localKickerUndo.get()?.();
  localKickerUndo.set(undefined);
  await (await driver)?.stop();
}

/**
 * Server start: the local driver runs every registered task in-process and new chain heads kick
 * the chain's watcher; under Inngest, which calls /api/inngest, kicks hand due deliveries over;
 * `none` runs nothing.
 */
export async function startJobs(): Promise<void> {
  if (env.JOBS_DRIVER === "local") {
    await ensureLocalDriver();
    kickOnNewHeads();
  } else if (env.JOBS_DRIVER === "inngest") {
    const { inngestKicker } = await import("./inngest/dispatch");
    registerKicker(inngestKicker());
  }
}
