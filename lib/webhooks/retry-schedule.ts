import { env } from "@/lib/env";

/**
 * When to retry a delivery that was not acknowledged: the one place that decides. The delays
 * come from WEBHOOK_RETRY_SCHEDULE_SECONDS (default 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h,
 * 12 h, 24 h, 24 h: about three days, 11 attempts in all); each is spread by ±20 % jitter so
 * receivers coming back from an outage are not hit by every retry in the same second.
 */
export interface RetrySchedule {
  /** Delay before retry n (index n - 1), in milliseconds; its length is the number of retries. */
  delaysMs: readonly number[];
  /** ±fraction applied to each delay. */
  jitter: number;
}

/** A Retry-After longer than this is capped: a receiver cannot park a delivery for weeks. */
export const maxRetryAfterMs = 24 * 60 * 60 * 1000;

export function retrySchedule(): RetrySchedule {
  return { delaysMs: env.WEBHOOK_RETRY_SCHEDULE_SECONDS.map((s) => Math.round(s * 1000)), jitter: 0.2 };
}

/** What a single HTTP attempt came back with, as far as the retry decision cares. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  /** The receiver's Retry-After, in ms, when it sent one. */
  retryAfterMs: number | null;
  /** The URL was refused by the SSRF policy in a way retrying cannot fix. */
  refused: boolean;
}

export type NextState =
  { status: "succeeded" } | { status: "failed"; reason: string; disableEndpoint: boolean } | { status: "pending"; delayMs: number; reason: string };

export function describeOutcome(outcome: AttemptOutcome): string {
  if (outcome.error) return outcome.error;
  return `HTTP ${outcome.statusCode}`;
}

export type Verdict =
  | { kind: "succeeded" }
  | { kind: "gone"; reason: string }
  | { kind: "refused"; reason: string }
  | { kind: "retry"; reason: string; retryAfterMs: number | null };

/**
 * What one attempt means, whoever counts the retries: any 2xx acknowledges; 410 Gone means stop
 * (and disable the endpoint); a refused URL cannot get better; anything else is worth a retry,
 * after the receiver's Retry-After when it answered 429 or 5xx with one.
 */
export function judge(outcome: AttemptOutcome): Verdict {
  const code = outcome.statusCode;
  if (code !== null && code >= 200 && code < 300) return { kind: "succeeded" };
  if (code === 410) return { kind: "gone", reason: "HTTP 410: the receiver asked for no more deliveries" };
  const reason = describeOutcome(outcome);
  if (outcome.refused) return { kind: "refused", reason };
  const honoursRetryAfter = code !== null && (code === 429 || code >= 500);
  const retryAfterMs = honoursRetryAfter && outcome.retryAfterMs !== null ? Math.min(Math.max(0, outcome.retryAfterMs), maxRetryAfterMs) : null;
  return { kind: "retry", reason, retryAfterMs };
}

/**
 * The delivery's state after attempt number `attempt` (1-based, in the current cycle): `judge`,
 * then the schedule for retries; once the schedule is used up the delivery fails.
 */
export function nextState(outcome: AttemptOutcome, attempt: number, schedule: RetrySchedule, random: () => number = Math.random): NextState {
  const verdict = judge(outcome);
  switch (verdict.kind) {
    case "succeeded":
      return { status: "succeeded" };
    case "gone":
      return { status: "failed", reason: verdict.reason, disableEndpoint: true };
    case "refused":
      return { status: "failed", reason: verdict.reason, disableEndpoint: false };
    case "retry": {
      if (attempt > schedule.delaysMs.length) {
        return { status: "failed", reason: `${verdict.reason} (gave up after ${attempt} attempts)`, disableEndpoint: false };
      }
      if (verdict.retryAfterMs !== null) return { status: "pending", delayMs: verdict.retryAfterMs, reason: verdict.reason };
      const base = schedule.delaysMs[attempt - 1]!;
      const factor = 1 - schedule.jitter + 2 * schedule.jitter * random();
      return { status: "pending", delayMs: Math.round(base * factor), reason: verdict.reason };
    }
  }
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
