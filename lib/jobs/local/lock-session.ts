import "server-only";
import { openSessionConnection } from "@/lib/db/client";
import type { Db, DbOrTx } from "@/lib/db/types";
import { log } from "@/lib/log";
import { advisoryLockKey, advisoryUnlock, advisoryUnlockAll, tryAdvisoryLock } from "../queries";

/**
 * Advisory locks need one connection for their whole life (a session lock belongs to the
 * connection that took it, and dies with it, so a crashed instance frees its tasks at once).
 * On PostgreSQL the driver opens a dedicated single-connection client for them; PGlite has only
 * one connection and one process, so its locks are trivially uncontested.
 *
 * The connection may die (a database restart, a network cut). The session then reconnects on its
 * next statement and the locks it held are gone: each task takes its lock again at its next run
 * (another instance may have taken it meanwhile, which is what the lock is for). This replaced a
 * connection reserved from the pool, which postgres.js kept writing to after it had closed
 * (`TypeError: Cannot read properties of null (reading 'write')` as an uncaughtException, and the
 * task loops waiting for ever on a statement that was never sent).
 */
export interface LockSession {
  tryLock(name: string): Promise<boolean>;
  unlock(name: string): Promise<void>;
  close(): Promise<void>;
}

export function openLockSession(db: Db): LockSession {
  let lockDb: DbOrTx = db;
  let held = 0;
  const connection = openSessionConnection(db, () => {
    if (held > 0) log.warn("the job lock connection closed; its locks are gone and will be taken again at the next runs", { locks_held: held });
    held = 0;
  });
  if (connection) lockDb = connection.db;
  return {
    async tryLock(name) {
      const locked = await tryAdvisoryLock(lockDb, advisoryLockKey(name));
      if (locked) held += 1;
      return locked;
    },
    async unlock(name) {
      await advisoryUnlock(lockDb, advisoryLockKey(name));
      held = Math.max(0, held - 1);
    },
    async close() {
      if (!connection) return;
      try {
        if (held > 0) await advisoryUnlockAll(lockDb);
      } finally {
        held = 0;
        await connection.end();
      }
    },
  };
}
