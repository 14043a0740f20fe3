import "server-only";
import Bowser from "bowser";
import { recordAudit } from "@/lib/audit/record";
import type { LoginSession } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { forgetLoginFamily } from "./credential-cache";
import { findLoginSession, listActiveLoginSessions } from "./login-session-queries";
import { revokeLoginFamily } from "./sessions";

/** A dashboard session's cookie lasts as long as an access token (lib/auth/next-auth.ts sessionMaxAgeSeconds). */
const dashboardSessionMs = 24 * 60 * 60 * 1000;

/** "Chrome 120 on Linux (desktop)" from a User-Agent; null when there was none. */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ? [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ") : null;
  const os = parsed.os.name ? [parsed.os.name, parsed.os.versionName].filter(Boolean).join(" ") : null;
  const type = parsed.platform.type;
  if (!browser && !os) return userAgent.slice(0, 80);
  return `${browser ?? "Unknown client"}${os ? ` on ${os}` : ""}${type ? ` (${type})` : ""}`;
}

export function serializeLoginSession(session: LoginSession, currentFamilyId: string | null) {
  return {
    id: session.familyId,
    kind: session.kind as "api" | "dashboard",
    device: describeDevice(session.userAgent),
    user_agent: session.userAgent,
    client_ip: session.clientIp,
    last_seen_ip: session.lastSeenIp,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    current: session.familyId === currentFamilyId,
  };
}

/** The person's sessions that can still act: API logins (refresh-token families) and dashboard sign-ins, most recently seen first. */
export async function listSessions(db: Db, merchantId: number, now = new Date()): Promise<LoginSession[]> {
  const rows = await listActiveLoginSessions(db, merchantId, now);
  return rows.filter((row) => row.kind !== "dashboard" || row.createdAt.getTime() + dashboardSessionMs > now.getTime());
}

/**
 * Ends one of the merchant's sessions for real: its refresh tokens stop rotating and its access
 * tokens and dashboard cookie stop working (the family is revoked, as at sign-out). Another
 * merchant's or an unknown session is 404; revoking twice is harmless.
 */
export async function revokeSession(db: Db, merchantId: number, sessionId: string, now = new Date()): Promise<LoginSession> {
  const session = await findLoginSession(db, merchantId, sessionId);
  if (!session) throw notFound("Session");
  if (session.revokedAt) return session;
  await db.transaction(async (tx) => {
    await revokeLoginFamily(tx, session.familyId, now);
    await recordAudit(tx, {
      merchantId,
      action: "auth.session_revoked",
      target: `session:${session.familyId.slice(0, 8)}`,
      before: { kind: session.kind, device: describeDevice(session.userAgent), client_ip: session.clientIp, last_seen_at: session.lastSeenAt.toISOString() },
      now,
    });
  });
  // Again after the commit: a request in between may have cached the family as still valid.
  forgetLoginFamily(session.familyId);
  return { ...session, revokedAt: now };
}
