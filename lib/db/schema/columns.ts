/** Column helpers every table file shares. */
import { numeric, timestamp } from "drizzle-orm/pg-core";

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Set from JS (never SQL `now()`) so a fake clock in tests governs every timestamp. */
export const timestamps = {
  createdAt: ts("created_at").notNull(),
  updatedAt: ts("updated_at").notNull(),
};

/** Integer base units of a token: up to 2^256, never floating point. */
export const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 });
