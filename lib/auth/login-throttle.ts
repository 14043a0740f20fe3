import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { countRecentLoginFailures, deleteLoginFailures, insertLoginFailures, recordKnownLoginAddress, signedInFromSince } from "./queries";
import { rateLimitedError } from "./rate-limit";

/**
 * Login throttling (DESIGN › Rate limits, hardened in issue 13 so nobody can lock an owner out):
 * - per (username, address) and per address: 10 failures in 15 minutes block for the rest of the
 *   window. Only the attacker's own address or pair is blocked.
 * - per username, from anywhere: past 10 failures in the window, an address the merchant has never
 *   signed in from waits a backoff after the latest failure (30 s, doubling per further failure, at
 *   most 15 minutes). An address the merchant signed in from in the last 90 days skips it, so the
 *   owner on a known device can always try the right password.
 */
export const maxLoginFailures = 10;
export const loginFailureWindowMs = 15 * 60 * 1000;
export const usernameBackoffBaseMs = 30_000;
export const knownAddressTtlMs = 90 * 24 * 60 * 60 * 1000;

export function loginSubjects(username: string, clientIp: string): { user: string; ip: string | null; pair: string } {
  const user = username.toLowerCase().replaceAll("\u0000", "");
  // "unknown" (no address at all) must not become one bucket shared by every client.
  return { user: `user:${user}`, ip: clientIp === "unknown" ? null : `ip:${clientIp}`, pair: `pair:${user}|${clientIp}` };
}

/** The backoff an unknown address waits after the latest failure once a username has `failures` of them. */
export function usernameBackoffMs(failures: number): number {
  if (failures < maxLoginFailures) return 0;
  return Math.min(usernameBackoffBaseMs * 2 ** (failures - maxLoginFailures), loginFailureWindowMs);
}

async function isKnownAddress(db: DbOrTx, merchantId: number, clientIp: string, now: Date): Promise<boolean> {
  if (clientIp === "unknown") return false;
  return signedInFromSince(db, merchantId, clientIp, new Date(now.getTime() - knownAddressTtlMs));
}

/** Throws 429 RATE_LIMITED when this attempt may not be made now. `merchantId`: the account the username names, if any. */
export async function assertLoginAllowed(db: DbOrTx, username: string, clientIp: string, merchantId: number | null, now = new Date()) {
  const { user, ip, pair } = loginSubjects(username, clientIp);
  const rows = await countRecentLoginFailures(db, ip ? [user, ip, pair] : [user, pair], new Date(now.getTime() - loginFailureWindowMs));
  const until: number[] = [];
  for (const row of rows) {
    if (row.subject === user) {
      const backoff = usernameBackoffMs(row.failures);
      const end = new Date(row.newest).getTime() + backoff;
      if (backoff > 0 && end > now.getTime() && !(merchantId !== null && (await isKnownAddress(db, merchantId, clientIp, now)))) until.push(end);
    } else if (row.failures >= maxLoginFailures) {
      // Allowed again once the oldest failure in the window ages out.
      until.push(new Date(row.oldest).getTime() + loginFailureWindowMs);
    }
  }
  if (until.length === 0) return;
  throw rateLimitedError({ retryAfterSeconds: Math.max(1, Math.ceil((Math.max(...until) - now.getTime()) / 1000)) });
}

export async function recordLoginFailure(db: DbOrTx, username: string, clientIp: string, now = new Date()) {
  const { user, ip, pair } = loginSubjects(username, clientIp);
  await insertLoginFailures(db, ip ? [user, ip, pair] : [user, pair], now);
}

/** After a successful login: the username's and this pair's failures are forgiven, and the address becomes known. */
export async function recordLoginSuccess(db: DbOrTx, merchantId: number, username: string, clientIp: string, now = new Date()) {
  const { user, pair } = loginSubjects(username, clientIp);
  await deleteLoginFailures(db, user);
  await deleteLoginFailures(db, pair);
  if (clientIp === "unknown") return;
  await recordKnownLoginAddress(db, merchantId, clientIp, now);
}
