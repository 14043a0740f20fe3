import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { withDeadline } from "@/lib/deadline";
import { staleTasks, taskClock, taskStateJson, taskStates } from "@/lib/jobs/task-state";
import { env } from "@/lib/env";
import { pingDatabase } from "./queries";

/** How long readiness waits for the database before calling it unreachable. */
export const readinessDatabaseDeadlineMs = 2_000;

export interface Readiness {
  ready: boolean;
  body: {
    status: "ready" | "not_ready";
    /** The names of the checks that failed. */
    failed: string[];
    checks: {
      database: { status: "ok" | "failed"; duration_ms: number; error?: string };
      workers: {
        status: "ok" | "failed";
        driver: "local" | "inngest" | "none";
        error?: string;
        stale: Array<{ task: string; overdue_seconds: number; consecutive_errors: number; last_error: string | null }>;
        tasks: Array<ReturnType<typeof taskStateJson>>;
      };
    };
  };
}

/**
 * Whether this instance should get traffic: the database answers (within 2 s), and, under the
 * local job driver, every task loop completed a tick within the sleep it announced plus the
 * grace (lib/jobs/task-state.ts). Under Inngest the workers are Inngest's to watch; with
 * JOBS_DRIVER=none there are none.
 */
export async function checkReadiness(db: DbOrTx, options: { driver?: "local" | "inngest" | "none" } = {}): Promise<Readiness> {
  const driver = options.driver ?? env.JOBS_DRIVER;
  const started = performance.now();
  let database: Readiness["body"]["checks"]["database"];
  try {
    await withDeadline(pingDatabase(db), readinessDatabaseDeadlineMs);
    database = { status: "ok", duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    database = { status: "failed", duration_ms: Math.round(performance.now() - started), error: databaseError(error) };
  }

  const states = taskStates();
  const stale = driver === "local" ? staleTasks(taskClock.now()) : [];
  const noLoops = driver === "local" && states.length === 0;
  const workers: Readiness["body"]["checks"]["workers"] = {
    status: stale.length > 0 || noLoops ? "failed" : "ok",
    driver,
    ...(noLoops ? { error: "The local job driver runs no task loop." } : {}),
    stale: stale.map((s) => ({ task: s.task, overdue_seconds: s.overdueSeconds, consecutive_errors: s.consecutiveErrors, last_error: s.lastError })),
    tasks: states.map(taskStateJson),
  };
  const failed = [...(database.status === "failed" ? ["database"] : []), ...(workers.status === "failed" ? ["workers"] : [])];
  return { ready: failed.length === 0, body: { status: failed.length === 0 ? "ready" : "not_ready", failed, checks: { database, workers } } };
}

/** The cause without SQL or parameters (drizzle puts them in its message). */
function databaseError(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return `${code}: ${(e as Error).message ?? ""}`.trim();
  }
  return error instanceof Error && !("query" in error) ? error.message : "The database did not answer.";
}
