import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { incrementCounter } from "./queries";

const hourMs = 60 * 60 * 1000;

export const plans = ["standard", "premium", "enterprise"] as const;
export type Plan = (typeof plans)[number];

/** Requests per hour for an account (spec › Limits; enterprise: the account's own value). */
export function hourlyLimit(plan: string, rateLimitPerHour: number | null): number {
  if (rateLimitPerHour && plan === "enterprise") return rateLimitPerHour;
  if (plan === "premium") return env.RATE_LIMIT_PREMIUM_PER_HOUR;
  if (plan === "enterprise") return env.RATE_LIMIT_ENTERPRISE_PER_HOUR;
  return env.RATE_LIMIT_STANDARD_PER_HOUR;
}

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
export function merchantWindow(now: Date, windowMs = hourMs): { start: Date; end: Date } {
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
 * through the database) and reports the state. Does not throw; see `rateLimitedError`. Authenticated API
 * requests count in the same statement that checks the credential (authenticateAndCount).
 */
export async function consume(db: DbOrTx, key: string, limit: number, windowMs = hourMs, now = new Date()): Promise<RateLimitState> {
  const window = merchantWindow(now, windowMs);
  const used = await incrementCounter(db, key, window.start);
  return windowState(used, limit, window, now);
}

export function rateLimitedError(state: Pick<RateLimitState, "retryAfterSeconds">, headers: Record<string, string> = {}): ApiError {
  return new ApiError("RATE_LIMITED", "Too many requests. Try again later.", undefined, {
    body: { retry_after: state.retryAfterSeconds },
    headers: { ...headers, "Retry-After": String(state.retryAfterSeconds) },
  });
}
