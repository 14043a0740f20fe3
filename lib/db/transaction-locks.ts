import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "./types";

/** A stable 64-bit advisory-lock key for a name. */
function lockKey(name: string): bigint {
  return createHash("sha256").update(`gateway-lock:${name}`).digest().readBigInt64BE(0);
}

/**
 * Takes a transaction-level advisory lock on each of `names`, held until the transaction ends (so it
 * also works behind a transaction-mode pooler), always in the same order: two transactions locking
 * overlapping sets never deadlock. Call it first in `db.transaction`: under READ COMMITTED every
 * statement after it sees what the previous holder committed, so a count followed by an insert
 * cannot be overtaken by a parallel one. Every statement inside must use the transaction's handle,
 * not the pool (while the pool's connections all wait here, a statement on the pool never runs).
 * On PGlite (one connection, transactions one at a time) the locks are granted at once.
 */
export async function lockForTransaction(tx: DbOrTx, names: string[]): Promise<void> {
  const keys = [...new Set(names.map(lockKey))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`);
}
