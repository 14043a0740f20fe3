import "server-only";
import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { countMerchantRequest, incrementCounter, merchantRequestCounter } from "./queries";

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
 * A request whose count rides in the statement that does its work (withApi `meteredStatement`),
 * so that statement is the request's only round trip. The statement embeds `counter` as a CTE
 * (`with counted as (${meter.counter})`), does its write only when `(select count from counted)
 * <= meter.limit`, and hands the count back with `settle`; a statement after that must not count
 * again (`counter` is null then). If the request ends without settling (it failed before its
 * statement), withApi counts it on its own and answers 429 if that goes over the limit: a route
 * metered this way writes nothing but through the metered statement.
 */
export class RequestMeter {
  readonly limit: number;
  private readonly window: { start: Date; end: Date };
  state: RateLimitState | null = null;

  constructor(
    readonly who: MeteredMerchant,
    private readonly now = new Date(),
  ) {
    this.limit = hourlyLimit(who.plan, who.rateLimitPerHour);
    this.window = merchantWindow(now);
  }

  /** The counting statement to embed, or null once this request was counted. */
  get counter(): SQL | null {
    return this.state ? null : merchantRequestCounter(this.who.merchantId, this.window.start);
  }

  /** Records the count the statement returned; throws 429 when it is over the limit (the statement then wrote nothing). */
  settle(used: number): void {
    this.state = windowState(used, this.limit, this.window, this.now);
    if (this.state.exceeded) throw rateLimitedError(this.state);
  }
}

/**
 * Counts one request against `key` in a fixed window (one upsert, shared by every app instance
 * through the database) and reports the state. Does not throw; see `rateLimitedError`. Authenticated
 * API requests count with their credential's lookup, or by `countMerchant`, or in their route's
 * own statement (RequestMeter).
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
