import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { countMerchantRequest, incrementCounter } from "./queries";

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

/** Who a request is counted for: the merchant and the limit of its plan. */
export interface MeteredMerchant {
  merchantId: number;
  plan: string;
  rateLimitPerHour: number | null;
}

/** Counts one request of a merchant in its current window, in a statement of its own (async commit). */
export async function countMerchant(db: DbOrTx, who: MeteredMerchant, now = new Date()): Promise<RateLimitState> {
  const window = merchantWindow(now);
  const used = await countMerchantRequest(db, who.merchantId, window.start);
  return windowState(used, hourlyLimit(who.plan, who.rateLimitPerHour), window, now);
}

/**
 * A request whose count runs beside its validation and handler (withApi starts it as soon as the
 * credential is known, `countInStatement`), so its round trip overlaps the request's own work; the
 * route's write waits for it with `admit`, which throws 429 when the request is over the limit, so
 * nothing is written then. The count is its own statement, committed without waiting for the disk
 * (lib/auth/queries.ts `countMerchantRequest`): were it part of the write's transaction, its
 * counter row would stay locked through the write's synchronous commit, and a merchant's writes
 * would queue one fsync at a time. If the route fails before `admit` (validation, say), withApi
 * still awaits the count and answers 429 over the limit, as if the request had been counted first.
 */
export class RequestMeter {
  constructor(private readonly count: Promise<RateLimitState>) {}

  /** Waits for the request's count; throws 429 when it is over the limit. A metered route writes only after this. */
  async admit(): Promise<void> {
    const state = await this.count;
    if (state.exceeded) throw rateLimitedError(state);
  }
}

/**
 * Counts one request against `key` in a fixed window (one upsert, shared by every app instance
 * through the database) and reports the state. Does not throw; see `rateLimitedError`. Authenticated
 * API requests count with their credential's lookup, or by `countMerchant` (beside a read's or a
 * metered write's work: RequestMeter).
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
