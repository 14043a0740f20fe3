import { and, count, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/types";
import { apiKeys, loginFailures, merchants, rateLimitCounters, refreshTokens, type NewMerchant } from "@/lib/db/schema";

// ─── merchants ───

export async function findMerchantById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, id)).limit(1);
  return row ?? null;
}

export async function findMerchantByUsername(db: DbOrTx, username: string) {
  const [row] = await db
    .select()
    .from(merchants)
    .where(sql`lower(${merchants.username}) = lower(${username})`)
    .limit(1);
  return row ?? null;
}

/** Which of username / email are already taken (case-insensitively). */
export async function findTakenIdentity(db: DbOrTx, username: string, email: string) {
  const rows = await db
    .select({ username: merchants.username, email: merchants.email })
    .from(merchants)
    .where(or(sql`lower(${merchants.username}) = lower(${username})`, sql`lower(${merchants.email}) = lower(${email})`));
  return {
    username: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
    email: rows.some((r) => r.email.toLowerCase() === email.toLowerCase()),
  };
}

export async function insertMerchant(db: DbOrTx, values: NewMerchant) {
  const [row] = await db.insert(merchants).values(values).returning();
  return row!;
}

/** Plan and limit lookup for rate limiting. */
export async function findMerchantPlan(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: merchants.id, username: merchants.username, plan: merchants.plan, rateLimitPerHour: merchants.rateLimitPerHour })
    .from(merchants)
    .where(eq(merchants.id, id))
    .limit(1);
  return row ?? null;
}

// ─── refresh tokens ───

export async function insertRefreshToken(db: DbOrTx, values: typeof refreshTokens.$inferInsert) {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshTokenByHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/** Marks the token spent; false when someone spent it first (concurrent reuse). */
export async function spendRefreshToken(db: DbOrTx, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

/** A revoked family stays revoked, tokens issued into it after the revocation (a lost race) included. */
/**
 * Whether a login family may no longer be used: revoked, or unknown here (no token of it was ever
 * issued by this database, e.g. a token from another deployment signed with the same secret).
 */
export async function isRefreshFamilyRevoked(db: DbOrTx, familyId: string): Promise<boolean> {
  const [row] = await db
    .select({ revoked: sql<boolean | null>`bool_or(${refreshTokens.revokedAt} is not null)` })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, familyId));
  return row?.revoked !== false;
}

export async function revokeRefreshFamily(db: DbOrTx, familyId: string, now: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

// ─── login throttle ───

export async function countRecentLoginFailures(db: DbOrTx, subjects: string[], since: Date) {
  return db
    .select({
      subject: loginFailures.subject,
      failures: count(),
      oldest: sql<Date>`min(${loginFailures.occurredAt})`.mapWith(loginFailures.occurredAt),
      newest: sql<Date>`max(${loginFailures.occurredAt})`.mapWith(loginFailures.occurredAt),
    })
    .from(loginFailures)
    .where(and(inArray(loginFailures.subject, subjects), gt(loginFailures.occurredAt, since)))
    .groupBy(loginFailures.subject);
}

export async function insertLoginFailures(db: DbOrTx, subjects: string[], now: Date) {
  await db.insert(loginFailures).values(subjects.map((subject) => ({ subject, occurredAt: now })));
}

export async function deleteLoginFailures(db: DbOrTx, subject: string) {
  await db.delete(loginFailures).where(eq(loginFailures.subject, subject));
}

export async function deleteLoginFailuresBefore(db: DbOrTx, before: Date) {
  await db.delete(loginFailures).where(lt(loginFailures.occurredAt, before));
}

// ─── rate limit counters ───

/** One round trip: counts this request in its window and returns the window's total. */
export async function incrementCounter(db: DbOrTx, key: string, windowStart: Date): Promise<number> {
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  return row!.count;
}

export async function deleteCountersBefore(db: DbOrTx, before: Date) {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, before));
}

// ─── API keys (lookup for authentication) ───

export async function findApiKeyForAuth(db: DbOrTx, keyHash: string) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      merchantId: apiKeys.merchantId,
      permissions: apiKeys.permissions,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      username: merchants.username,
      plan: merchants.plan,
      rateLimitPerHour: merchants.rateLimitPerHour,
    })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row ?? null;
}

/** Records use at most once a minute per key, so authenticated requests do not all write. */
export async function touchApiKey(db: DbOrTx, id: number, now: Date) {
  const staleBefore = new Date(now.getTime() - 60_000);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))));
}
