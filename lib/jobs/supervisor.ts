import "server-only";
import { databaseUnavailability } from "@/lib/db/errors";
import { describeError, log } from "@/lib/log";
import {
  backoffDelayMs,
  defaultBackoff,
  defaultRunDeadlineMs,
  nextRun,
  retryInMsOf,
  RunDeadlineExceeded,
  runWithDeadline,
  type BackoffPolicy,
} from "./run-policy";
import { forgetTaskState, markRunFailed, markRunStarted, markRunSucceeded, registerTaskState, taskClock, type TaskState } from "./task-state";

/** What one run tells its supervisor: how long to sleep before the next (a kick ends the sleep early). */
export interface SupervisedRunResult {
  sleepMs: number;
  /** The run did nothing because another instance holds the task's lock. */
  lockedElsewhere?: boolean;
}

export { backoffDelayMs, defaultBackoff, defaultRunDeadlineMs, RunDeadlineExceeded, type BackoffPolicy } from "./run-policy";

export interface SupervisedTaskOptions {
  name: string;
  /** Sleep after a run that named none. */
  intervalMs: number;
  runDeadlineMs?: number;
  backoff?: BackoffPolicy;
  /** Aborted when the driver stops. */
  signal: AbortSignal;
  /** One run; its signal is aborted at the deadline or when the driver stops. Throws on failure. */
  run(signal: AbortSignal): Promise<SupervisedRunResult | void>;
  /**
   * A run failed because the database is unavailable: the driver watches for it to come back and
   * kicks the task then (a kick ends the backoff at most one base delay after the failure), so the
   * task does not sleep out the rest of a 30 s backoff with the database already there.
   */
  onDatabaseUnavailable?(): void;
}

export interface SupervisedTask {
  readonly state: TaskState;
  /** Ends the current sleep so the task runs now; during an error backoff, retries at most one base delay after the failure. */
  kick(): void;
  /** Whether the loop is sleeping out an error backoff. */
  readonly backingOff: boolean;
  /** Ends the current sleep (the driver is stopping). */
  wake(): void;
  /** Settles when the loop has stopped (after `signal` aborted). */
  readonly stopped: Promise<void>;
}

/**
 * Runs a task in a supervised loop, the way graphile-worker and pg-boss keep workers alive: a run
 * that throws is counted (consecutive errors) and retried after an exponential, capped backoff; a
 * run that hangs past its deadline is abandoned (its signal aborted) and the next one started; a
 * loop that crashes is restarted. A streak of failures logs ONE warning (an error when the cause is
 * not the database) and one "recovered" line when a run succeeds again, not a line per retry.
 */
export function superviseTask(options: SupervisedTaskOptions): SupervisedTask {
  const runDeadlineMs = options.runDeadlineMs ?? defaultRunDeadlineMs;
  const policy = options.backoff ?? defaultBackoff;
  const state = registerTaskState(options.name, runDeadlineMs);
  let kicked = false;
  let wake: (() => void) | null = null;
  let inBackoff = false;
  /** A kick during a backoff (a new head: the chain answers again; new work) retries from this moment on, never sooner. */
  let backoffEndsEarliestAt = 0;
  let earlyRetry: NodeJS.Timeout | undefined;
  let streakStartedAt: number | null = null;
  let lastLoggedError: string | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  function noteFailure(error: unknown): number {
    const backoffMs = nextRun({ ok: false, retryInMs: retryInMsOf(error) }, state.consecutiveErrors, options, policy).sleepMs;
    const unavailable = databaseUnavailability(error);
    const cause = unavailable?.cause;
    // Never drizzle's own message: it carries the SQL and its bound parameters, and readiness shows this.
    const message = unavailable?.error ?? String(describeError(error).error);
    if (error instanceof RunDeadlineExceeded) state.restarts += 1;
    const fields = { task: options.name, consecutive_errors: state.consecutiveErrors + 1, retry_in_ms: backoffMs, ...(unavailable ?? describeError(error)) };
    if (state.consecutiveErrors === 0) {
      streakStartedAt = taskClock.now();
      lastLoggedError = message;
      if (cause) log.warn("task failing: database unavailable; retrying with backoff", fields);
      else log.error("task failing; retrying with backoff", fields);
    } else if (!cause && message !== lastLoggedError) {
      lastLoggedError = message;
      log.error("task still failing, with another error", fields);
    } else {
      log.debug("task still failing", fields);
    }
    markRunFailed(state, message, backoffMs);
    if (cause) options.onDatabaseUnavailable?.();
    return backoffMs;
  }

  function noteSuccess(result: SupervisedRunResult | void): number {
    const sleepMs = nextRun({ ok: true, nextRunInMs: result?.sleepMs }, state.consecutiveErrors, options, policy).sleepMs;
    if (state.consecutiveErrors > 0) {
      log.info("task recovered", {
        task: options.name,
        after_errors: state.consecutiveErrors,
        failing_for_ms: streakStartedAt === null ? null : taskClock.now() - streakStartedAt,
      });
      streakStartedAt = null;
      lastLoggedError = null;
    }
    markRunSucceeded(state, sleepMs, { lockedElsewhere: result?.lockedElsewhere });
    return sleepMs;
  }

  async function loop(): Promise<void> {
    while (!options.signal.aborted) {
      kicked = false;
      markRunStarted(state);
      let sleepMs: number;
      try {
        sleepMs = noteSuccess(await runWithDeadline(options.name, runDeadlineMs, options.run, options.signal));
      } catch (error) {
        if (options.signal.aborted) break;
        const backoffMs = noteFailure(error);
        inBackoff = true;
        backoffEndsEarliestAt = Date.now() + Math.min(backoffMs, policy.baseMs);
        try {
          await sleep(backoffMs);
        } finally {
          inBackoff = false;
        }
        continue;
      }
      if (options.signal.aborted) break;
      // Idle tasks say when there is next something to do; the sleep ends early on a kick.
      if (!kicked) await sleep(sleepMs);
    }
  }

  const stopped = (async () => {
    while (!options.signal.aborted) {
      try {
        await loop();
      } catch (error) {
        // Only a bug in the loop itself gets here (a run's failure is caught above): start it again.
        state.restarts += 1;
        log.error("task loop crashed; restarting it", { task: options.name, ...describeError(error) });
        await sleep(backoffDelayMs(1, policy));
      }
    }
    forgetTaskState(state);
  })();

  return {
    state,
    get backingOff() {
      return inBackoff;
    },
    kick() {
      kicked = true;
      if (!inBackoff) {
        wake?.();
        return;
      }
      // A kick cuts an error backoff short, but retries at most once per base delay: a provider or
      // database that is back is used at once, and one still down is not asked more than before.
      clearTimeout(earlyRetry);
      earlyRetry = setTimeout(() => wake?.(), Math.max(0, backoffEndsEarliestAt - Date.now()));
      earlyRetry.unref?.();
    },
    wake() {
      wake?.();
    },
    stopped,
  };
}
