/** The general rate limiter's fixed-window counters (lib/rate-limit; authentication counts the merchant's `merchant:<id>` key in its own statements). */
import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/** Fixed-window counters: one row per (key, window); one upsert per counted request. */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
