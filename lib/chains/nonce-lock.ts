import "server-only";
import { createHash } from "node:crypto";
import { openSessionConnection } from "@/lib/db/client";
import { releaseSessionLock, takeSessionLock } from "@/lib/db/session-locks";
import type { Db } from "@/lib/db/types";
import { log } from "@/lib/log";
import type { Blockchain } from "./catalog";

/**
 * The advisory-lock key of one sending account's nonces. Keyed by the RPC URL on the devnet (every
 * sandbox slug shares one devnet, so one nonce per account) and by the chain id elsewhere (two
 * instances may reach one network through different providers).
 */
export function nonceLockKey(chain: Pick<Blockchain, "isDevnet" | "rpcUrl" | "chainId">, address: string): string {
  const scope = chain.isDevnet ? `rpc:${chain.rpcUrl}` : `chain:${chain.chainId}`;
  return createHash("sha256").update(`gateway-nonce:${scope}:${address.toLowerCase()}`).digest().readBigInt64BE(0).toString();
}

/**
 * Runs `work` (pick a nonce, record, broadcast) while no other instance does the same for this
 * account (docs/adr/0058-one-nonce-picker-per-key.md): a session-level `pg_advisory_lock` on a
 * connection of its own, taken and released around `work` only, never around the wait for a
 * receipt. A crashed instance's lock dies with its connection. On PGlite (one process, one
 * connection) there is no other instance: `work` runs at once. The caller holds the account's
 * in-process lock (`withAccountLock`, lib/chains/serial-sender.ts): two callers of one process never
 * wait here on each other.
 */
export async function withNonceLock<T>(
  db: Db,
  chain: Pick<Blockchain, "isDevnet" | "rpcUrl" | "chainId" | "slug">,
  address: string,
  work: () => Promise<T>,
): Promise<T> {
  let lost = false;
  const connection = openSessionConnection(db, () => {
    lost = true;
  });
  if (!connection) return work();
  const key = nonceLockKey(chain, address);
  try {
    await takeSessionLock(connection.db, key);
    try {
      return await work();
    } finally {
      if (lost) log.warn("the nonce lock connection closed while it was held", { chain: chain.slug, sender: address.toLowerCase() });
      else await releaseSessionLock(connection.db, key).catch(() => undefined);
    }
  } finally {
    await connection.end().catch(() => undefined);
  }
}
