import { and, count, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { preparedStatement, withCachedPlans } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/map-row";
import type { DbOrTx } from "@/lib/db/types";
import {
  apiKeys,
  memberships,
  knownLoginAddresses,
  loginFailures,
  merchants,
  rateLimitCounters,
  refreshTokens,
  type ApiKey,
  type Merchant,
  type NewMerchant,
} from "@/lib/db/schema";

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

/** Changes a merchant's own columns (secrets, settings); null when there is no such merchant. */
export async function updateMerchant(
  db: DbOrTx,
  id: number,
  changes: Partial<Omit<Merchant, "id" | "createdAt">> & { updatedAt: Date },
): Promise<Merchant | null> {
  const [updated] = await db.update(merchants).set(changes).where(eq(merchants.id, id)).returning();
  return updated ?? null;
}

/** Sets a merchant's plan and own hourly limit; returns what an operator sees of it. */
export async function updateMerchantPlan(db: DbOrTx, id: number, plan: string, rateLimitPerHour: number | null, now: Date) {
  const [row] = await db
    .update(merchants)
    .set({ plan, rateLimitPerHour, updatedAt: now })
    .where(eq(merchants.id, id))
    .returning({ id: merchants.id, username: merchants.username, plan: merchants.plan, rateLimitPerHour: merchants.rateLimitPerHour });
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

/**
 * Whether a login family may no longer be used: revoked (tokens issued into it after the
 * revocation, a lost race, included), or unknown here (no token of it was ever
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

/** One failure per subject at `now`; their row ids. */
export async function insertLoginFailures(db: DbOrTx, subjects: string[], now: Date): Promise<number[]> {
  const rows = await db
    .insert(loginFailures)
    .values(subjects.map((subject) => ({ subject, occurredAt: now })))
    .returning({ id: loginFailures.id });
  return rows.map((row) => row.id);
}

/** Takes back failures recorded by `insertLoginFailures` (an attempt that turned out right). */
export async function deleteLoginFailureRows(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return;
  await db.delete(loginFailures).where(inArray(loginFailures.id, ids));
}

export async function deleteLoginFailures(db: DbOrTx, subject: string) {
  await db.delete(loginFailures).where(eq(loginFailures.subject, subject));
}

export async function deleteLoginFailuresBefore(db: DbOrTx, before: Date) {
  await db.delete(loginFailures).where(lt(loginFailures.occurredAt, before));
}

// ─── known login addresses ───

/** Whether the merchant signed in from `address` after `since`. */
export async function signedInFromSince(db: DbOrTx, merchantId: number, address: string, since: Date): Promise<boolean> {
  const rows = await db
    .select({ address: knownLoginAddresses.address })
    .from(knownLoginAddresses)
    .where(and(eq(knownLoginAddresses.merchantId, merchantId), eq(knownLoginAddresses.address, address), gt(knownLoginAddresses.lastLoginAt, since)))
    .limit(1);
  return rows.length > 0;
}

/** The merchant signed in from `address` now. */
export async function recordKnownLoginAddress(db: DbOrTx, merchantId: number, address: string, now: Date): Promise<void> {
  await db
    .insert(knownLoginAddresses)
    .values({ merchantId, address, lastLoginAt: now })
    .onConflictDoUpdate({ target: [knownLoginAddresses.merchantId, knownLoginAddresses.address], set: { lastLoginAt: now } });
}

// ─── the merchant's rate-limit counter (the general counters' statements: lib/rate-limit/queries.ts) ───

/** Requests counted in the merchant's current rate-limit window (the `merchant:<id>` counter the authenticating statements below count in). */
export async function rateLimitUsage(db: DbOrTx, merchantId: number, windowStart: Date): Promise<number> {
  const [row] = await db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.key, `merchant:${merchantId}`), eq(rateLimitCounters.windowStart, windowStart)))
    .limit(1);
  return row?.count ?? 0;
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

// ─── API keys (management) ───

export async function insertApiKey(db: DbOrTx, values: typeof apiKeys.$inferInsert): Promise<ApiKey> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

export async function listApiKeys(db: DbOrTx, merchantId: number, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(apiKeys).where(eq(apiKeys.merchantId, merchantId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(limit).offset(offset),
    db.select({ value: count() }).from(apiKeys).where(eq(apiKeys.merchantId, merchantId)),
  ]);
  return { rows, count: total?.value ?? 0 };
}

export async function countApiKeys(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(apiKeys).where(eq(apiKeys.merchantId, merchantId));
  return row?.value ?? 0;
}

/** Revokes one of the merchant's keys unless already revoked; null when nothing changed. */
export async function revokeMerchantApiKey(db: DbOrTx, merchantId: number, id: number, now: Date): Promise<ApiKey | null> {
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
    .returning();
  return revoked ?? null;
}

/** The merchant's unrevoked keys made by one login. */
export async function listActiveKeysOfCreator(db: DbOrTx, merchantId: number, userId: number): Promise<ApiKey[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), eq(apiKeys.createdBy, userId), isNull(apiKeys.revokedAt)));
}

export async function narrowApiKeyPermissions(db: DbOrTx, merchantId: number, id: number, permissions: string[]): Promise<ApiKey | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ permissions })
    .where(and(eq(apiKeys.merchantId, merchantId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? null;
}

export async function findMerchantApiKey(db: DbOrTx, merchantId: number, id: number): Promise<ApiKey | null> {
  const [existing] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId)))
    .limit(1);
  return existing ?? null;
}

// ─── authentication and rate limit, one statement each ───

/** What one authenticating statement answers: the credential's merchant and, when usable, this window's count. */
export interface CountedCredential {
  merchantId: number;
  username: string;
  plan: string;
  rateLimitPerHour: number | null;
  /** Requests counted in the merchant's current window, this one included; null when nothing was counted. */
  used: number | null;
}

const counterKey = (merchantIdSql: SQL) => sql`'merchant:' || ${merchantIdSql}`;

/**
 * Commits this statement without waiting for its WAL flush (synchronous_commit off for this
 * transaction only). Every request of a merchant updates one counter row, and the row lock is
 * held until commit: waiting for the disk there would serialize a merchant's requests on fsync.
 * Visibility and atomicity are unchanged (the count stays exact across instances); a database
 * crash can lose the last fraction of a second of counts and last-used touches, never an order.
 */
const asyncCommit = sql`set_config('synchronous_commit', 'off', true) as async_commit`;

const p = sql.placeholder;

/**
 * One round trip for an API key: finds the key with its merchant, counts the request in the
 * merchant's window (`merchant:<id>`, the key lib/auth/rate-limit.ts uses) only when the key is
 * neither revoked nor expired, and records use at most once a minute. The caller decides the
 * answer from the row, so revocation is seen by the very next request. Its plan is cached
 * (`withCachedPlans`: the key's hash, the merchant's id and the counter's key are unique keys).
 */
const apiKeyAndCount = preparedStatement(
  "auth_api_key_and_count",
  () => sql`
    with k as (
      select k.id, k.merchant_id, k.permissions, k.expires_at, k.revoked_at, m.username, m.plan, m.rate_limit_per_hour,
             (k.revoked_at is null and (k.expires_at is null or k.expires_at > ${p("at")}::timestamptz)) as usable
      from ${apiKeys} k join ${merchants} m on m.id = k.merchant_id
      where k.key_hash = ${p("keyHash")}::text
      limit 1
    ),
    counted as (
      insert into ${rateLimitCounters} (key, window_start, count)
      select ${counterKey(sql`k.merchant_id`)}, ${p("windowStart")}::timestamptz, 1 from k where k.usable
      on conflict (key, window_start) do update set count = ${rateLimitCounters}.count + 1
      returning count
    ),
    touched as (
      update ${apiKeys} set last_used_at = ${p("at")}::timestamptz
      where id = (select id from k where k.usable) and (last_used_at is null or last_used_at < ${p("staleBefore")}::timestamptz)
      returning id
    )
    select k.*, (select count from counted) as used, ${asyncCommit} from k`,
);

export async function findApiKeyAndCount(db: DbOrTx, keyHash: string, windowStart: Date, now: Date) {
  const result = await apiKeyAndCount(withCachedPlans(db), {
    keyHash,
    at: now.toISOString(),
    windowStart: windowStart.toISOString(),
    staleBefore: new Date(now.getTime() - 60_000).toISOString(),
  });
  const [row] = rowsOf(result);
  if (!row) return null;
  return {
    id: Number(row.id),
    permissions: apiKeys.permissions.mapFromDriverValue(row.permissions as string[]) as string[],
    expiresAt: row.expires_at == null ? null : (apiKeys.expiresAt.mapFromDriverValue(row.expires_at as string) as Date),
    revokedAt: row.revoked_at == null ? null : (apiKeys.revokedAt.mapFromDriverValue(row.revoked_at as string) as Date),
    ...credentialOf(row),
  };
}

/**
 * One round trip for an access token: whether its refresh family was revoked (or is unknown), the merchant,
 * and (when neither revoked nor missing) the request counted in the merchant's window. Its plan is
 * cached (`withCachedPlans`: the family's tokens through their one index, the merchant by id).
 */
const tokenMerchantAndCount = preparedStatement(
  "auth_token_merchant_and_count",
  () => sql`
    with f as (
      -- as isRefreshFamilyRevoked: a revoked family, and one this database never issued, are refused
      select (${p("familyId")}::text is null or coalesce((
        select bool_or(r.revoked_at is not null) from ${refreshTokens} r where r.family_id = ${p("familyId")}::text
      ), true)) as revoked
    ),
    m as (
      select a.id as merchant_id, u.username, a.plan, a.rate_limit_per_hour, ms.role
      from ${merchants} a
      join ${memberships} ms on ms.merchant_id = a.id and ms.user_id = ${p("userId")}::integer
      join ${merchants} u on u.id = ms.user_id
      where a.id = ${p("merchantId")}::integer and not (select revoked from f)
    ),
    counted as (
      insert into ${rateLimitCounters} (key, window_start, count)
      select ${counterKey(sql`m.merchant_id`)}, ${p("windowStart")}::timestamptz, 1 from m
      on conflict (key, window_start) do update set count = ${rateLimitCounters}.count + 1
      returning count
    )
    select f.revoked, m.*, (select count from counted) as used, ${asyncCommit} from f left join m on true`,
);

/** `merchantId`: the account the token acts in; `userId`: its login, who must still be a member (its role comes back). */
export async function findTokenMerchantAndCount(db: DbOrTx, merchantId: number, userId: number, familyId: string | null, windowStart: Date) {
  const result = await tokenMerchantAndCount(withCachedPlans(db), { familyId, merchantId, userId, windowStart: windowStart.toISOString() });
  const [row] = rowsOf(result);
  return { revoked: row?.revoked === true, merchant: row && row.merchant_id != null ? { ...credentialOf(row), role: String(row.role) } : null };
}

/**
 * Counts `requests` requests of a credential already known (lib/auth/credential-cache.ts) in the
 * merchant's window (`merchant:<id>`), in one atomic upsert of its own that commits without
 * waiting for the disk (see `asyncCommit`); the window's total, these included. Its plan is cached
 * (the counter's key). lib/auth/rate-limit.ts `countMerchant` hands each request its own number.
 */
const merchantRequestCount = preparedStatement(
  "auth_merchant_request_count",
  () => sql`
    with counted as (
      insert into ${rateLimitCounters} (key, window_start, count)
      values (${counterKey(sql`${p("merchantId")}::integer`)}, ${p("windowStart")}::timestamptz, ${p("requests")}::integer)
      on conflict (key, window_start) do update set count = ${rateLimitCounters}.count + ${p("requests")}::integer
      returning count
    )
    select count, ${asyncCommit} from counted`,
);

export async function countMerchantRequests(db: DbOrTx, merchantId: number, windowStart: Date, requests: number): Promise<number> {
  const result = await merchantRequestCount(withCachedPlans(db), { merchantId, windowStart: windowStart.toISOString(), requests });
  return Number(rowsOf(result)[0]!.count);
}

function credentialOf(row: Record<string, unknown>): CountedCredential {
  return {
    merchantId: Number(row.merchant_id),
    username: String(row.username),
    plan: String(row.plan),
    rateLimitPerHour: row.rate_limit_per_hour == null ? null : Number(row.rate_limit_per_hour),
    used: row.used == null ? null : Number(row.used),
  };
}

// ─── account webhook secrets and inbox token (webhook signing, the sandbox inbox) ───

export interface AccountSecrets {
  id: number;
  webhookSecret: string;
  previousWebhookSecret: string | null;
  previousWebhookSecretExpiresAt: Date | null;
  inboxToken: string;
}

const accountSecretColumns = {
  id: merchants.id,
  webhookSecret: merchants.webhookSecret,
  previousWebhookSecret: merchants.previousWebhookSecret,
  previousWebhookSecretExpiresAt: merchants.previousWebhookSecretExpiresAt,
  inboxToken: merchants.inboxToken,
};

export async function accountSecretsByIds(db: DbOrTx, ids: number[]): Promise<AccountSecrets[]> {
  if (ids.length === 0) return [];
  return db.select(accountSecretColumns).from(merchants).where(inArray(merchants.id, ids));
}

export async function accountByInboxToken(db: DbOrTx, token: string): Promise<AccountSecrets | null> {
  const [row] = await db.select(accountSecretColumns).from(merchants).where(eq(merchants.inboxToken, token)).limit(1);
  return row ?? null;
}

/** The login's chosen dashboard language, as stored (validated by lib/auth/dashboard-locale.ts). */
export async function findDashboardLocale(db: DbOrTx, merchantId: number): Promise<string | null> {
  const [row] = await db.select({ locale: merchants.dashboardLocale }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row?.locale ?? null;
}

export async function updateDashboardLocale(db: DbOrTx, merchantId: number, locale: string, now: Date) {
  await db.update(merchants).set({ dashboardLocale: locale, updatedAt: now }).where(eq(merchants.id, merchantId));
}
