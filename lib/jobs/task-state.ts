/**
 * What each background task of this process last did, for operators (readiness, metrics) and for
 * its supervisor's backoff: last success, last error, consecutive errors (graphile-worker's
 * "contiguous errors"), backing off until, last tick duration, and by when it promised to tick
 * again. Process-wide (lib/process-singleton.ts): Next may load this module more than once.
 */
import { processSingleton, processSlot } from "@/lib/process-singleton";

export interface TaskState {
  readonly task: string;
  /** When this process's loop for the task started (the first tick is due by then plus the grace). */
  readonly startedAt: number;
  /** A run taking longer is abandoned by its supervisor (lib/jobs/supervisor.ts). */
  readonly runDeadlineMs: number;
  /** A run under way since then, or null. */
  runningSince: number | null;
  lastSuccessAt: number | null;
  lastErrorAt: number | null;
  /** The last error's message (never a stack, SQL or its parameters: readiness shows it). */
  lastError: string | null;
  consecutiveErrors: number;
  /** Backing off after errors until then (ms since epoch), or null. */
  backingOffUntil: number | null;
  lastTickDurationMs: number | null;
  /** The next tick should have completed by then: end of the last good tick + the sleep it announced + the grace. */
  dueBy: number;
  /** Runs abandoned at their deadline (stuck) and loops restarted after crashing. */
  restarts: number;
  /** The last run found the task's lock held by another instance (it did nothing, which is fine). */
  lockedElsewhere: boolean;
}

/** A clock that tests may move (readiness staleness without sleeping). */
export interface TaskClock {
  now(): number;
}

/**
 * How late a tick may be beyond the sleep its loop announced before readiness calls the task
 * stale: a slow run (a catch-up scan, a slow RPC) plus scheduling slack on a busy machine.
 */
export const defaultTaskGraceMs = 30_000;

const states = processSingleton("taskStates", () => new Map<string, TaskState>());
const testClock = processSlot<TaskClock>("taskClock");
const testGraceMs = processSlot<number>("taskGraceMs");

export const taskClock: TaskClock = {
  now: () => (testClock.get() ?? Date).now(),
};

/** Tests: read staleness against another clock (undefined restores the real one). */
export function setTaskClock(clock: TaskClock | undefined): void {
  testClock.set(clock);
}

export function taskGraceMs(): number {
  return testGraceMs.get() ?? defaultTaskGraceMs;
}

/** Tests: a shorter or longer grace (undefined restores the default). */
export function setTaskGraceMs(ms: number | undefined): void {
  testGraceMs.set(ms);
}

/** A fresh state for a task whose loop starts now (replacing any earlier loop's). */
export function registerTaskState(task: string, runDeadlineMs: number): TaskState {
  const now = taskClock.now();
  const state: TaskState = {
    task,
    startedAt: now,
    runDeadlineMs,
    runningSince: null,
    lastSuccessAt: null,
    lastErrorAt: null,
    lastError: null,
    consecutiveErrors: 0,
    backingOffUntil: null,
    lastTickDurationMs: null,
    dueBy: now + taskGraceMs(),
    restarts: 0,
    lockedElsewhere: false,
  };
  states.set(task, state);
  return state;
}

export function forgetTaskState(state: TaskState): void {
  if (states.get(state.task) === state) states.delete(state.task);
}

/** Every task state of this process, by task name. */
export function taskStates(): TaskState[] {
  return [...states.values()];
}

export function markRunStarted(state: TaskState): void {
  state.runningSince = taskClock.now();
}

/** A good tick: errors reset, and the next one is due after the sleep the loop announced (plus the grace). */
export function markRunSucceeded(state: TaskState, nextSleepMs: number, options: { lockedElsewhere?: boolean } = {}): void {
  const now = taskClock.now();
  state.lastTickDurationMs = state.runningSince === null ? null : now - state.runningSince;
  state.runningSince = null;
  state.lastSuccessAt = now;
  state.consecutiveErrors = 0;
  state.backingOffUntil = null;
  state.lockedElsewhere = options.lockedElsewhere ?? false;
  state.dueBy = now + nextSleepMs + taskGraceMs();
}

/** A failed tick (or one abandoned at its deadline): counted, and the loop backs off until `backoffMs` from now. */
export function markRunFailed(state: TaskState, errorMessage: string, backoffMs: number): void {
  const now = taskClock.now();
  state.lastTickDurationMs = state.runningSince === null ? null : now - state.runningSince;
  state.runningSince = null;
  state.lastErrorAt = now;
  state.lastError = errorMessage;
  state.consecutiveErrors += 1;
  state.backingOffUntil = now + backoffMs;
}

export interface StaleTask {
  task: string;
  /** How far past its due time, in seconds. */
  overdueSeconds: number;
  consecutiveErrors: number;
  lastError: string | null;
}

/**
 * Tasks that have not completed a tick within what their loop announced (plus the grace). A run
 * under way does not count as late until it passes its run deadline (then its supervisor abandons it).
 */
export function staleTasks(now = taskClock.now()): StaleTask[] {
  const stale: StaleTask[] = [];
  for (const state of states.values()) {
    if (now <= state.dueBy) continue;
    if (state.runningSince !== null && now - state.runningSince < state.runDeadlineMs) continue;
    stale.push({
      task: state.task,
      overdueSeconds: Math.round((now - state.dueBy) / 1000),
      consecutiveErrors: state.consecutiveErrors,
      lastError: state.lastError,
    });
  }
  return stale;
}

/** The state as JSON for operators (ISO times). */
export function taskStateJson(state: TaskState) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    task: state.task,
    running_since: iso(state.runningSince),
    last_success_at: iso(state.lastSuccessAt),
    last_error_at: iso(state.lastErrorAt),
    last_error: state.lastError,
    consecutive_errors: state.consecutiveErrors,
    backing_off_until: iso(state.backingOffUntil),
    last_tick_duration_ms: state.lastTickDurationMs === null ? null : Math.round(state.lastTickDurationMs),
    due_by: iso(state.dueBy),
    restarts: state.restarts,
    locked_elsewhere: state.lockedElsewhere,
  };
}
