import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "./types";

/** Waits for a session-level advisory lock: held until `releaseSessionLock` on the same connection, or until it closes. */
export async function takeSessionLock(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_lock(${key}::bigint)`);
}

export async function releaseSessionLock(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_unlock(${key}::bigint)`);
}
