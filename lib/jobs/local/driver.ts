import "server-only";
import type { Db } from "@/lib/db/types";
import { describeError, log } from "@/lib/log";
import { databaseAnswers } from "../queries";
import type { BackoffPolicy } from "../run-policy";
import { superviseTask, type SupervisedRunResult, type SupervisedTask } from "../supervisor";
import type { AnyTask } from "../tasks";
import { openLockSession, type LockSession } from "./lock-session";

export interface LocalDriver {
  /** Runs the task right away (or right after its current run, if one is under way). */
  kick(taskName: string): void;
  /** Stops every loop: waits for runs under way to end and releases the locks. */
  stop(): Promise<void>;
  readonly taskNames: readonly string[];
}

export interface LocalDriverOptions {
  /** The database the tasks run against (default: the process-wide one). */
  db: Db;
  /** Retry backoff after a failed run (default: lib/jobs/run-policy.ts defaultBackoff). */
  backoff?: BackoffPolicy;
  /** Deadline of every run, for tasks that set none (default: lib/jobs/run-policy.ts defaultRunDeadlineMs). */
  runDeadlineMs?: number;
  /** How often the database is asked whether it is back while tasks wait on it (default 1 s). */
  databaseProbeMs?: number;
}

/** A promise and its resolve: one per kick, so a run can wait for the next one (`TaskContext.kicked`). */
function kickSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * The in-process scheduler (DESIGN › Shape): one supervised loop per task (lib/jobs/supervisor.ts:
 * backoff on errors, a deadline per run, restart after a crash, state for readiness and metrics),
 * each single-flight (a run never overlaps the previous one, unless the previous one was abandoned
 * at its deadline), exclusive tasks guarded by a Postgres advisory lock so that several app
 * instances never run one at the same time.
 */
export function startLocalDriver(tasks: readonly AnyTask[], options: LocalDriverOptions): LocalDriver {
  const { db } = options;
  const controller = new AbortController();
  const locks: LockSession = openLockSession(db);

  // One promise per kick, so a run can wait for the next one (`TaskContext.kicked`).
  const kickSignals = new Map(tasks.map((task) => [task.name, kickSignal()]));

  async function runOnce(task: AnyTask, signal: AbortSignal): Promise<SupervisedRunResult | void> {
    const exclusive = (task.concurrency ?? "exclusive") === "exclusive";
    // A lock statement fails like any other during an outage: the supervisor counts it and backs off.
    if (exclusive && !(await locks.tryLock(task.name))) return { sleepMs: task.intervalMs, lockedElsewhere: true };
    try {
      const result = await task.run(db, { signal, kicked: () => kickSignals.get(task.name)!.promise });
      return { sleepMs: result?.nextRunInMs ?? task.intervalMs };
    } finally {
      if (exclusive)
        await locks
          .unlock(task.name)
          .catch((error) => log.debug("job unlock failed (the lock went with its connection)", { task: task.name, ...describeError(error) }));
    }
  }

  /**
   * While a task waits on the database (its last run failed for want of it), one `select 1` per
   * `databaseProbeMs`; the first answer kicks every task in backoff, so readiness and the work come
   * back within a second or two of the database rather than after the rest of a 30 s backoff (issue 50).
   */
  let probing = false;
  function watchDatabase() {
    if (probing || controller.signal.aborted) return;
    probing = true;
    void (async () => {
      try {
        while (!controller.signal.aborted) {
          await new Promise((resolve) => setTimeout(resolve, options.databaseProbeMs ?? 1_000).unref?.());
          const back = await databaseAnswers(db);
          if (!back) continue;
          log.info("database answers again: waking the tasks in backoff");
          for (const loop of loops) if (loop.supervised.backingOff) loop.supervised.kick();
          return;
        }
      } finally {
        probing = false;
      }
    })();
  }

  const loops: Array<{ task: AnyTask; supervised: SupervisedTask }> = tasks.map((task) => ({
    task,
    supervised: superviseTask({
      name: task.name,
      intervalMs: task.intervalMs,
      runDeadlineMs: task.runDeadlineMs ?? options.runDeadlineMs,
      backoff: options.backoff,
      signal: controller.signal,
      run: (signal) => runOnce(task, signal),
      onDatabaseUnavailable: watchDatabase,
    }),
  }));

  const byName = new Map(loops.map((loop) => [loop.task.name, loop.supervised]));
  let stopping: Promise<void> | null = null;

  return {
    taskNames: tasks.map((t) => t.name),
    kick(taskName) {
      if (controller.signal.aborted) return;
      byName.get(taskName)?.kick();
      const kicked = kickSignals.get(taskName);
      if (kicked) {
        kickSignals.set(taskName, kickSignal());
        kicked.resolve();
      }
    },
    stop() {
      stopping ??= (async () => {
        controller.abort();
        for (const loop of loops) loop.supervised.wake();
        await Promise.all(loops.map((loop) => loop.supervised.stopped));
        await locks.close().catch((error) => log.warn("job lock release failed", describeError(error)));
      })();
      return stopping;
    },
  };
}
