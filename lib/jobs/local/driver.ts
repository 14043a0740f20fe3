import "server-only";
import type { Db } from "@/lib/db/types";
import { describeError, log } from "@/lib/log";
import type { AnyTask, TaskRunResult } from "../tasks";
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
}

/** A promise and its resolve: one per kick, so a run can wait for the next one (`TaskContext.kicked`). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * The in-process scheduler (DESIGN › Shape): one loop per task, each single-flight (a run never
 * overlaps the previous one), exclusive tasks guarded by a Postgres advisory lock so that several
 * app instances never run one at the same time. An error is logged and the loop goes on.
 */
export function startLocalDriver(tasks: readonly AnyTask[], options: LocalDriverOptions): LocalDriver {
  const { db } = options;
  const controller = new AbortController();
  let session: Promise<LockSession> | null = null;
  const lockSession = () => (session ??= openLockSession(db).catch((error) => ((session = null), Promise.reject(error))));

  const loops = tasks.map((task) => {
    const state = { kicked: false, wake: null as (() => void) | null, kick: signal() };

    const runOnce = async (): Promise<TaskRunResult | void> => {
      const exclusive = (task.concurrency ?? "exclusive") === "exclusive";
      let locks: LockSession | null = null;
      if (exclusive) {
        try {
          locks = await lockSession();
          if (!(await locks.tryLock(task.name))) return; // another instance is on it
        } catch (error) {
          log.error("job lock failed", { task: task.name, ...describeError(error) });
          const broken = session;
          session = null;
          await broken?.then((s) => s.close()).catch(() => {});
          return;
        }
      }
      try {
        return await task.run(db, { signal: controller.signal, kicked: () => state.kick.promise });
      } catch (error) {
        log.error("job run failed", { task: task.name, ...describeError(error) });
      } finally {
        if (locks) await locks.unlock(task.name).catch((error) => log.error("job unlock failed", { task: task.name, ...describeError(error) }));
      }
    };

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        timer.unref?.();
        function done() {
          clearTimeout(timer);
          state.wake = null;
          resolve();
        }
        state.wake = done;
      });

    const running = (async () => {
      while (!controller.signal.aborted) {
        state.kicked = false;
        const result = await runOnce();
        if (controller.signal.aborted) break;
        // Idle tasks say when there is next something to do; the sleep ends early on a kick.
        if (!state.kicked) await sleep(result?.nextRunInMs ?? task.intervalMs);
      }
    })();

    return { task, state, running };
  });

  const byName = new Map(loops.map((loop) => [loop.task.name, loop]));
  let stopping: Promise<void> | null = null;

  return {
    taskNames: tasks.map((t) => t.name),
    kick(taskName) {
      const loop = byName.get(taskName);
      if (!loop || controller.signal.aborted) return;
      loop.state.kicked = true;
      loop.state.wake?.();
      const kicked = loop.state.kick;
      loop.state.kick = signal();
      kicked.resolve();
    },
    stop() {
      stopping ??= (async () => {
        controller.abort();
        for (const loop of loops) loop.state.wake?.();
        await Promise.all(loops.map((loop) => loop.running));
        const open = session;
        session = null;
        await open?.then((s) => s.close()).catch((error) => log.error("job lock release failed", describeError(error)));
      })();
      return stopping;
    },
  };
}
