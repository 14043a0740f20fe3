import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db/map-row";
import type { DbOrTx } from "@/lib/db/types";

/** A stable 64-bit advisory-lock key for a task name. */
export function advisoryLockKey(name: string): string {
  return createHash("sha256").update(`gateway-task:${name}`).digest().readBigInt64BE(0).toString();
}

/** Session-level: held until `advisoryUnlock` on the same connection, or until it closes. */
export async function tryAdvisoryLock(db: DbOrTx, key: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`select pg_try_advisory_lock(${key}::bigint) as locked`))[0]?.locked === true;
}

export async function advisoryUnlock(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_unlock(${key}::bigint)`);
}

/** Drops every session lock this connection holds (before it goes back to the pool). */
export async function advisoryUnlockAll(db: DbOrTx): Promise<void> {
  await db.execute(sql`select pg_advisory_unlock_all()`);
}

/** Whether the database answers: one round trip (the local driver's probe while tasks wait on it). */
export async function databaseAnswers(db: DbOrTx): Promise<boolean> {
  return db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
}
