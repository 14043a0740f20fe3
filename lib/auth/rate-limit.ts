import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { fixedWindow, rateLimitedError, windowState, type RateLimitState } from "@/lib/rate-limit/fixed-window";
import { countMerchantRequests } from "./queries";

/**
 * The merchant's plan limit on the API: requests an hour by plan, counted in the general limiter's
 * fixed windows (lib/rate-limit/) under the key `merchant:<id>`.
 */

export const plans = ["standard", "premium", "enterprise"] as const;
export type Plan = (typeof plans)[number];

/** Requests per hour for an account (spec › Limits; enterprise: the account's own value). */
export function hourlyLimit(plan: string, rateLimitPerHour: number | null): number {
  if (rateLimitPerHour && plan === "enterprise") return rateLimitPerHour;
  if (plan === "premium") return env.RATE_LIMIT_PREMIUM_PER_HOUR;
  if (plan === "enterprise") return env.RATE_LIMIT_ENTERPRISE_PER_HOUR;
  return env.RATE_LIMIT_STANDARD_PER_HOUR;
}

/** Who a request is counted for: the merchant and the limit of its plan. */
export interface MeteredMerchant {
  merchantId: number;
  plan: string;
  rateLimitPerHour: number | null;
}

/**
 * Counts one request of a merchant in its current window (async commit, lib/auth/queries.ts
 * `countMerchantRequests`). Counts are grouped like commits: while this process's statement for a
 * merchant's window is on its way, that merchant's next requests wait and go together in the next
 * one, which adds their number at once; each request then gets its own place in what that
 * statement added (a total T after adding n: T − n + 1, …, T, in arrival order), exactly as if
 * they had been counted one by one. The counter stays one atomic upsert, exact across instances;
 * a lone request is counted at once, and a busy merchant's requests cost a fraction of a statement
 * each (the row is locked for every update anyway, so counts of one merchant never ran in parallel).
 */
export function countMerchant(db: DbOrTx, who: MeteredMerchant, now = new Date()): Promise<RateLimitState> {
  const window = fixedWindow(now);
  const limit = hourlyLimit(who.plan, who.rateLimitPerHour);
  return new Promise<number>((resolve, reject) => enqueueCount(db, who.merchantId, window.start, { resolve, reject })).then((used) =>
    windowState(used, limit, window, now),
  );
}

interface WaitingCount {
  resolve(used: number): void;
  reject(error: unknown): void;
}

interface CounterQueue {
  waiting: WaitingCount[];
  inFlight: boolean;
}

/** Per database handle, per merchant and window: the requests waiting for the next counting statement. */
const counterQueues = new WeakMap<object, Map<string, CounterQueue>>();

function enqueueCount(db: DbOrTx, merchantId: number, windowStart: Date, waiter: WaitingCount): void {
  let queues = counterQueues.get(db);
  if (!queues) counterQueues.set(db, (queues = new Map()));
  const key = `${merchantId}:${windowStart.getTime()}`;
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = { waiting: [], inFlight: false }));
  queue.waiting.push(waiter);
  if (!queue.inFlight) void flushCounts(db, queues, key, queue, merchantId, windowStart);
}

async function flushCounts(
  db: DbOrTx,
  queues: Map<string, CounterQueue>,
  key: string,
  queue: CounterQueue,
  merchantId: number,
  windowStart: Date,
): Promise<void> {
  queue.inFlight = true;
  while (queue.waiting.length > 0) {
    const batch = queue.waiting.splice(0);
    try {
      const total = await countMerchantRequests(db, merchantId, windowStart, batch.length);
      batch.forEach((waiter, i) => waiter.resolve(total - batch.length + 1 + i));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }
  queue.inFlight = false;
  queues.delete(key);
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
