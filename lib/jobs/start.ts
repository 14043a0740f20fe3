import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { startLocalDriver, type LocalDriver } from "./local/driver";
import { localTasks, type AnyTask } from "./tasks";

// Next.js may load modules more than once (instrumentation vs. routes): the driver is a
// process-wide singleton on globalThis, created on first use, never at import time.
const holder = globalThis as unknown as { __gatewayLocalDriver?: Promise<LocalDriver> };

/** The process's local driver, started on first call (with `extraTasks` on top of localTasks). */
export function ensureLocalDriver(extraTasks: readonly AnyTask[] = []): Promise<LocalDriver> {
  holder.__gatewayLocalDriver ??= getDb().then((db) => {
    const driver = startLocalDriver([...localTasks, ...extraTasks], { db });
    log.info("local job driver started", { tasks: driver.taskNames });
    return driver;
  });
  return holder.__gatewayLocalDriver;
}

/** The local driver if this process started one. */
export function runningLocalDriver(): Promise<LocalDriver> | undefined {
  return holder.__gatewayLocalDriver;
}

/** Stops the local driver, if running (tests, shutdown). */
export async function stopLocalDriver(): Promise<void> {
  const driver = holder.__gatewayLocalDriver;
  holder.__gatewayLocalDriver = undefined;
  await (await driver)?.stop();
}

/** Server start: the local driver runs in-process; Inngest calls /api/inngest instead; `none` runs nothing. */
export async function startJobs(): Promise<void> {
  if (env.JOBS_DRIVER !== "local") return;
  // Chain watching, sweeps and housekeeping: built now, after the sandbox devnet is up, so the catalog knows its URL.
  const { chainTasks, wireChainKicks } = await import("@/lib/chains/chain-tasks");
  const driver = await ensureLocalDriver(chainTasks());
  wireChainKicks((taskName) => driver.kick(taskName));
}
