import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { incrementCounter } from "./queries";

/**
 * The general rate limiter: fixed windows counted in the database (one upsert per counted request,
 * shared by every app instance), for any key: a client address on a public route, a merchant's
 * verification mails, invitations, sweeps. The merchant's plan limit on the API (lib/auth/rate-limit.ts)
 * counts in the same windows.
 */

const hourMs = 60 * 60 * 1000;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** unix seconds at which the window resets */
  reset: number;
  retryAfterSeconds: number;
  exceeded: boolean;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(state.reset),
  };
}

/** The fixed window `now` falls in. */
export function fixedWindow(now: Date, windowMs = hourMs): { start: Date; end: Date } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

/** The state of a window in which `used` requests (this one included) have been counted. */
export function windowState(used: number, limit: number, window: { end: Date }, now: Date): RateLimitState {
  const windowEnd = window.end.getTime();
  return {
    limit,
    remaining: Math.max(0, limit - used),
    reset: Math.floor(windowEnd / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000)),
    exceeded: used > limit,
  };
}

/**
 * Counts one request against `key` in a fixed window (one upsert, shared by every app instance
 * through the database) and reports the state. Does not throw; see `rateLimitedError`. Authenticated
 * API requests count with their credential's lookup, or by `countMerchant` (lib/auth/rate-limit.ts).
 */
export async function consume(db: DbOrTx, key: string, limit: number, windowMs = hourMs, now = new Date()): Promise<RateLimitState> {
  const window = fixedWindow(now, windowMs);
  const used = await incrementCounter(db, key, window.start);
  return windowState(used, limit, window, now);
}

export function rateLimitedError(state: Pick<RateLimitState, "retryAfterSeconds">, headers: Record<string, string> = {}): ApiError {
  return new ApiError("RATE_LIMITED", "Too many requests. Try again later.", undefined, {
    body: { retry_after: state.retryAfterSeconds },
    headers: { ...headers, "Retry-After": String(state.retryAfterSeconds) },
  });
}
