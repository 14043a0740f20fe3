import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { countRecentLoginFailures, deleteLoginFailures, insertLoginFailures } from "./queries";
import { rateLimitedError } from "./rate-limit";

/** DESIGN › Rate limits: 10 failed logins in 15 minutes per username or per client address. */
export const maxLoginFailures = 10;
export const loginFailureWindowMs = 15 * 60 * 1000;

export function loginSubjects(username: string, clientIp: string): { user: string; ip: string } {
  return { user: `user:${username.toLowerCase()}`, ip: `ip:${clientIp}` };
}

/** Throws 429 RATE_LIMITED when either subject has too many recent failures. */
export async function assertLoginAllowed(db: DbOrTx, username: string, clientIp: string, now = new Date()) {
  const { user, ip } = loginSubjects(username, clientIp);
  const rows = await countRecentLoginFailures(db, [user, ip], new Date(now.getTime() - loginFailureWindowMs));
  const blocked = rows.filter((r) => r.failures >= maxLoginFailures);
  if (blocked.length === 0) return;
  // Allowed again once the oldest failure in the window ages out.
  const unblockAt = Math.max(...blocked.map((r) => new Date(r.oldest).getTime() + loginFailureWindowMs));
  throw rateLimitedError({ retryAfterSeconds: Math.max(1, Math.ceil((unblockAt - now.getTime()) / 1000)) });
}

export async function recordLoginFailure(db: DbOrTx, username: string, clientIp: string, now = new Date()) {
  const { user, ip } = loginSubjects(username, clientIp);
  await insertLoginFailures(db, [user, ip], now);
}

export async function clearUserLoginFailures(db: DbOrTx, username: string) {
  await deleteLoginFailures(db, loginSubjects(username, "").user);
}
