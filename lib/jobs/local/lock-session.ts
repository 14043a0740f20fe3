import "server-only";
import type { Sql } from "postgres";
import type { Db, DbOrTx } from "@/lib/db/types";
import { advisoryLockKey, advisoryUnlock, advisoryUnlockAll, tryAdvisoryLock } from "../queries";

/**
 * Advisory locks need one connection for their whole life (a session lock belongs to the
 * connection that took it, and dies with it, so a crashed instance frees its tasks at once).
 * On PostgreSQL the driver reserves a connection from the pool for them; PGlite has only one
 * connection and one process, so its locks are trivially uncontested.
 */
export interface LockSession {
  tryLock(name: string): Promise<boolean>;
  unlock(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openLockSession(db: Db): Promise<LockSession> {
  const client = (db as unknown as { $client?: unknown }).$client as Partial<Sql> | undefined;
  let lockDb: DbOrTx = db;
  let release = async () => {};
  if (client && typeof client.reserve === "function") {
    const reserved = await client.reserve();
    try {
      const { drizzle } = await import("drizzle-orm/postgres-js");
      // A reserved connection lacks the pool's `options`, which drizzle reads (type parsers).
      lockDb = drizzle(Object.assign(reserved, { options: client.options })) as unknown as DbOrTx;
    } catch (error) {
      reserved.release();
      throw error;
    }
    release = async () => {
      try {
        await advisoryUnlockAll(lockDb);
      } finally {
        reserved.release();
      }
    };
  }
  return {
    tryLock: (name) => tryAdvisoryLock(lockDb, advisoryLockKey(name)),
    unlock: (name) => advisoryUnlock(lockDb, advisoryLockKey(name)),
    close: release,
  };
}
