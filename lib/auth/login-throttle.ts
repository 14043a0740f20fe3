import "server-only";
import { lockForTransaction } from "@/lib/db/transaction-locks";
import type { DbOrTx } from "@/lib/db/types";
import {
  countRecentLoginFailures,
  deleteLoginFailureRows,
  deleteLoginFailures,
  insertLoginFailures,
  recordKnownLoginAddress,
  signedInFromSince,
} from "./queries";
import { rateLimitedError } from "@/lib/rate-limit/fixed-window";

/**
 * Login throttling (DESIGN › Rate limits, hardened in issue 13 so nobody can lock an owner out):
 * - per (username, address) and per address: 10 failures in 15 minutes block for the rest of the
 *   window. Only the attacker's own address or pair is blocked.
 * - per username, from anywhere: past 10 failures in the window, an address the merchant has never
 *   signed in from waits a backoff after the latest failure (30 s, doubling per further failure, at
 *   most 15 minutes). An address the merchant signed in from in the last 90 days skips it, so the
 *   owner on a known device can always try the right password.
 * The limits hold however many attempts arrive at once (issue 49): each attempt is counted as a
 * failure before its password is checked (`reserveAttempt`), and taken back if it was right.
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

/**
 * Reserves one attempt on `subjects` (rows of login_failures): under a transaction lock on each
 * subject, `assertAllowed` sees the subjects' recent failures and throws (429) when the attempt may
 * not be made; otherwise the attempt is recorded as a failure of every subject, before the secret
 * is checked. An attempt running beside it therefore already counts it, so at most N attempts are
 * ever checked per window, whatever their number and on however many connections; a refused
 * attempt records nothing, as before. Returns the rows: the caller deletes them when the secret was
 * right (an attempt that dies half-way stays a failure).
 */
export async function reserveAttempt(db: DbOrTx, subjects: string[], now: Date, assertAllowed: (tx: DbOrTx) => Promise<void>): Promise<number[]> {
  return db.transaction(async (tx) => {
    await lockForTransaction(
      tx,
      subjects.map((subject) => `login_failures:${subject}`),
    );
    await assertAllowed(tx);
    return insertLoginFailures(tx, subjects, now);
  });
}

/** A password attempt the throttle let through, counted as a failure until it proves right. */
export interface LoginAttempt {
  /** The password was right: the attempt is no failure after all. */
  succeeded(): Promise<void>;
}

/**
 * Begins a password attempt: 429 RATE_LIMITED when it may not be made now, else it is counted as a
 * failure (of the username, the address and the pair) until `succeeded`. A wrong password needs
 * nothing more. `merchantId`: the account the username names, if any (its known addresses skip the
 * username's backoff).
 */
export async function beginLoginAttempt(db: DbOrTx, username: string, clientIp: string, merchantId: number | null, now = new Date()): Promise<LoginAttempt> {
  const { user, ip, pair } = loginSubjects(username, clientIp);
  const ids = await reserveAttempt(db, ip ? [user, ip, pair] : [user, pair], now, (tx) => assertLoginAllowed(tx, username, clientIp, merchantId, now));
  return { succeeded: () => deleteLoginFailureRows(db, ids) };
}

/** Throws 429 RATE_LIMITED when this attempt may not be made now. */
async function assertLoginAllowed(db: DbOrTx, username: string, clientIp: string, merchantId: number | null, now: Date) {
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

/** After a successful login: the username's and this pair's failures are forgiven, and the address becomes known. */
export async function recordLoginSuccess(db: DbOrTx, merchantId: number, username: string, clientIp: string, now = new Date()) {
  const { user, pair } = loginSubjects(username, clientIp);
  await deleteLoginFailures(db, user);
  await deleteLoginFailures(db, pair);
  if (clientIp === "unknown") return;
  await recordKnownLoginAddress(db, merchantId, clientIp, now);
}
