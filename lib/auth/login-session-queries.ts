import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { loginSessions, refreshTokens } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function insertLoginSession(db: DbOrTx, row: typeof loginSessions.$inferInsert): Promise<void> {
  await db.insert(loginSessions).values(row).onConflictDoNothing();
}

/** Last seen now, from this address; at most once a minute per session, so a busy dashboard does not write on every page. */
export async function touchLoginSession(db: DbOrTx, familyId: string, clientIp: string | null, now: Date): Promise<void> {
  await db
    .update(loginSessions)
    .set({ lastSeenAt: now, lastSeenIp: clientIp })
    .where(and(eq(loginSessions.familyId, familyId), lt(loginSessions.lastSeenAt, new Date(now.getTime() - 60_000))));
}

/**
 * The merchant's sessions still able to act: not revoked (in refresh_tokens, where revocation
 * lives) and with a refresh token that has not expired; most recently seen first.
 */
export async function listActiveLoginSessions(db: DbOrTx, merchantId: number, now: Date) {
  return db
    .select()
    .from(loginSessions)
    .where(
      and(
        eq(loginSessions.merchantId, merchantId),
        isNull(loginSessions.revokedAt),
        sql`exists (select 1 from ${refreshTokens} r where r.family_id = ${loginSessions.familyId} and r.expires_at > ${now.toISOString()}::timestamptz)`,
        sql`not exists (select 1 from ${refreshTokens} r where r.family_id = ${loginSessions.familyId} and r.revoked_at is not null)`,
      ),
    )
    .orderBy(desc(loginSessions.lastSeenAt));
}

export async function findLoginSession(db: DbOrTx, merchantId: number, familyId: string) {
  const [row] = await db
    .select()
    .from(loginSessions)
    .where(and(eq(loginSessions.merchantId, merchantId), eq(loginSessions.familyId, familyId)))
    .limit(1);
  return row ?? null;
}

export async function markLoginSessionRevoked(db: DbOrTx, familyId: string, now: Date): Promise<void> {
  await db
    .update(loginSessions)
    .set({ revokedAt: now })
    .where(and(eq(loginSessions.familyId, familyId), isNull(loginSessions.revokedAt)));
}
