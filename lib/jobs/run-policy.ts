import { env } from "@/lib/env";

/**
 * What happens after a task's run, the one rule both drivers follow (the local driver's supervisor,
 * lib/jobs/supervisor.ts, and the Inngest task loop, lib/jobs/inngest/task-loop.ts): so a behaviour
 * tested under one holds under the other.
 */
export interface BackoffPolicy {
  /** The first retry after an error waits about this long; each further one twice as long… */
  baseMs: number;
  /** …up to this. */
  capMs: number;
}

/** 1 s, 2 s, 4 s … capped at 30 s: an outage costs a task a retry every 30 s, not one a second. */
export const defaultBackoff: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };

/** The backoff the drivers run with: the default base, capped at TASK_RETRY_MAX_SECONDS. */
export function configuredBackoff(): BackoffPolicy {
  return { baseMs: defaultBackoff.baseMs, capMs: env.TASK_RETRY_MAX_SECONDS * 1000 };
}

/** How long one run may take before its driver abandons it (its signal is aborted) and starts the next. */
export const defaultRunDeadlineMs = 5 * 60_000;

/** The wait before retry number `consecutiveErrors` (1 = after the first error), with up to 20 % jitter below. */
export function backoffDelayMs(consecutiveErrors: number, policy: BackoffPolicy = defaultBackoff, random = Math.random): number {
  const exponential = policy.baseMs * 2 ** Math.min(Math.max(consecutiveErrors - 1, 0), 30);
  return Math.round(Math.min(policy.capMs, exponential) * (0.8 + 0.2 * random()));
}

/**
 * How a run ended: it succeeded (and may name when there is next something to do), or it threw (a
 * deadline passed counts). A run that failed only in part may name an earlier retry than its backoff:
 * the error carries `retryInMs` (see `retryInMsOf`).
 */
export type RunOutcome = { ok: true; nextRunInMs?: number } | { ok: false; retryInMs?: number };

/** The retry a failed run's error asks for, when it asks for one (a number of milliseconds ≥ 0). */
export function retryInMsOf(error: unknown): number | undefined {
  const retryInMs = (error as { retryInMs?: unknown } | null)?.retryInMs;
  return typeof retryInMs === "number" && Number.isFinite(retryInMs) && retryInMs >= 0 ? retryInMs : undefined;
}

export interface NextRun {
  /** Sleep this long before the next run (a kick may end it sooner). */
  sleepMs: number;
  /** The failure streak after this run (0 after a success). */
  consecutiveErrors: number;
  /** The sleep is an error backoff. */
  backingOff: boolean;
}

/**
 * After a run: a success sleeps what the run named, else the task's interval, and ends any streak;
 * a failure extends the streak and sleeps its backoff (`backoffDelayMs`), or the sooner retry it
 * named (never later than the backoff).
 */
export function nextRun(
  outcome: RunOutcome,
  consecutiveErrorsBefore: number,
  task: { intervalMs: number },
  policy: BackoffPolicy = defaultBackoff,
  random = Math.random,
): NextRun {
  if (outcome.ok) return { sleepMs: outcome.nextRunInMs ?? task.intervalMs, consecutiveErrors: 0, backingOff: false };
  const consecutiveErrors = consecutiveErrorsBefore + 1;
  const backoffMs = backoffDelayMs(consecutiveErrors, policy, random);
  return { sleepMs: outcome.retryInMs === undefined ? backoffMs : Math.min(outcome.retryInMs, backoffMs), consecutiveErrors, backingOff: true };
}

/** A run that passed its deadline. */
export class RunDeadlineExceeded extends Error {
  constructor(
    readonly task: string,
    readonly deadlineMs: number,
  ) {
    super(`the run did not finish within its deadline (${deadlineMs} ms)`);
    this.name = "RunDeadlineExceeded";
  }
}

/**
 * Starts one run with its deadline: resolves with the run, or rejects with RunDeadlineExceeded when
 * the deadline passes (the run's signal is aborted then, and when `stop` aborts).
 */
export async function runWithDeadline<T>(name: string, deadlineMs: number, run: (signal: AbortSignal) => Promise<T>, stop?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const onStop = () => controller.abort(stop?.reason);
  stop?.addEventListener("abort", onStop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const running = run(controller.signal);
  try {
    return await Promise.race([
      running,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // The rejection first: a run that settles when aborted must not win the race.
          reject(new RunDeadlineExceeded(name, deadlineMs));
          controller.abort(new RunDeadlineExceeded(name, deadlineMs));
        }, deadlineMs);
        timer.unref?.();
      }),
    ]);
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener("abort", onStop);
    // An abandoned run may still settle later; its failure is already accounted for.
    running.catch(() => {});
  }
}
