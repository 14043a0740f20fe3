import "server-only";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { processSlot } from "@/lib/process-singleton";
import { registerKicker } from "./kick";
import { startLocalDriver, type LocalDriver } from "./local/driver";
import { configuredBackoff } from "./run-policy";
import type { AnyTask } from "./tasks";

// Next.js may load modules more than once (instrumentation vs. routes): the driver is a
// process-wide singleton, created on first use, never at import time.
const localDriver = processSlot<Promise<LocalDriver>>("localDriver");
const localKickerUndo = processSlot<() => void>("localKickerUndo");

/**
 * The process's local driver, started on first call with the tasks `tasks()` lists then (the
 * engine's registry, read at start so the catalog knows the sandbox devnet's URL) and registered as
 * the kicker, so that `kick()` wakes its loops.
 */
export function ensureLocalDriver(tasks: () => readonly AnyTask[]): Promise<LocalDriver> {
  return (
    localDriver.get() ??
    localDriver.set(
      getDb().then((db) => {
        const driver = startLocalDriver(tasks(), { db, backoff: configuredBackoff() });
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
