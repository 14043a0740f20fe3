import { lt, sql } from "drizzle-orm";
import { rateLimitCounters } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/**
 * The general fixed-window counters (`rate_limit_counters`, one row per key and window). The
 * merchant's API counter (`merchant:<id>`) is counted inside authentication's own statements and read
 * by the dashboard (lib/auth/queries.ts).
 */

/** One round trip: counts this request in its window and returns the window's total. */
export async function incrementCounter(db: DbOrTx, key: string, windowStart: Date): Promise<number> {
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  return row!.count;
}

/** Adds `n` to the counter of `key` in its window and returns the window's total. */
export async function addToCounter(db: DbOrTx, key: string, windowStart: Date, n: number): Promise<number> {
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, windowStart, count: n })
    .onConflictDoUpdate({ target: [rateLimitCounters.key, rateLimitCounters.windowStart], set: { count: sql`${rateLimitCounters.count} + ${n}` } })
    .returning({ count: rateLimitCounters.count });
  return row!.count;
}

export async function deleteCountersBefore(db: DbOrTx, before: Date) {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, before));
}
