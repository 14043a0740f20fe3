import "server-only";
import { and, count, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/types";
import { emailTokens, knownLoginAddresses, mailOutbox, mailSuppressions, merchants, refreshTokens } from "@/lib/db/schema";

// ─── outbox ───

export async function insertOutboxMessage(db: DbOrTx, values: typeof mailOutbox.$inferInsert) {
  await db.insert(mailOutbox).values(values);
}

/** The mail addressed to one login, newest first: what its own outbox page shows, and nobody else's. */
export async function listOutboxMessages(db: DbOrTx, userId: number, limit: number) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.recipientUserId, userId)).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)).limit(limit);
}

// ─── email tokens ───

export async function insertEmailToken(db: DbOrTx, values: typeof emailTokens.$inferInsert) {
  await db.insert(emailTokens).values(values);
}

/** Spends an unused, unexpired token of `purpose` atomically; null when there is none (or someone spent it first). */
export async function spendEmailToken(db: DbOrTx, purpose: string, tokenHash: string, now: Date) {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning();
  return row ?? null;
}

/** Every still-usable token of `purpose` of the merchant stops working (a reset link after the reset). */
export async function spendAllEmailTokens(db: DbOrTx, merchantId: number, purpose: string, now: Date) {
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.merchantId, merchantId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

// ─── merchants ───

export async function findMerchantByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(merchants)
    .where(sql`lower(${merchants.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

/** Marks the address verified, if it is still the account's address. */
export async function markEmailVerified(db: DbOrTx, merchantId: number, email: string, now: Date) {
  const [row] = await db
    .update(merchants)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(merchants.id, merchantId), sql`lower(${merchants.email}) = lower(${email})`))
    .returning();
  return row ?? null;
}

export async function setPasswordHash(db: DbOrTx, merchantId: number, passwordHash: string, now: Date) {
  await db.update(merchants).set({ passwordHash, updatedAt: now }).where(eq(merchants.id, merchantId));
}

/** Revokes every refresh token (so every login family, API and dashboard) of the merchant. */
export async function revokeAllRefreshTokens(db: DbOrTx, merchantId: number, now: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.merchantId, merchantId), isNull(refreshTokens.revokedAt)));
}

// ─── known sign-in addresses ───

/** How many addresses the merchant has signed in from, and whether `address` is one of them. */
export async function knownAddressState(db: DbOrTx, merchantId: number, address: string, since: Date) {
  const [row] = await db
    .select({
      total: count(),
      known: sql<boolean>`coalesce(bool_or(${knownLoginAddresses.address} = ${address}), false)`,
    })
    .from(knownLoginAddresses)
    .where(and(eq(knownLoginAddresses.merchantId, merchantId), gt(knownLoginAddresses.lastLoginAt, since)));
  return { total: Number(row?.total ?? 0), known: row?.known === true };
}

/** Keeps the merchant's `keep` most recent sign-in addresses, forgets the rest. */
export async function pruneKnownAddresses(db: DbOrTx, merchantId: number, keep: number) {
  await db.execute(sql`
    delete from ${knownLoginAddresses}
    where ${knownLoginAddresses.merchantId} = ${merchantId}
      and ${knownLoginAddresses.address} not in (
        select address from ${knownLoginAddresses}
        where ${knownLoginAddresses.merchantId} = ${merchantId}
        order by ${knownLoginAddresses.lastLoginAt} desc
        limit ${keep}
      )`);
}

// ─── suppressions (customer mail that must not be sent) ───

/**
 * Whether mail to `email` is suppressed: for the store (`merchantId`), or, with `storeOrEvery`, for the
 * store or for every store (a bounce suppresses everywhere, merchantId null).
 */
export async function findSuppression(db: DbOrTx, key: { merchantId: number | null; email: string; storeOrEvery: boolean }): Promise<boolean> {
  const forStore = key.merchantId === null ? isNull(mailSuppressions.merchantId) : eq(mailSuppressions.merchantId, key.merchantId);
  const [row] = await db
    .select({ id: mailSuppressions.id })
    .from(mailSuppressions)
    .where(and(eq(mailSuppressions.email, key.email), key.storeOrEvery ? or(forStore, isNull(mailSuppressions.merchantId)) : forStore))
    .limit(1);
  return Boolean(row);
}

export async function insertSuppression(
  db: DbOrTx,
  values: { merchantId: number | null; email: string; reason: "unsubscribed" | "bounced"; createdAt: Date },
): Promise<void> {
  await db.insert(mailSuppressions).values(values);
}

// ─── the store's language ───

/** The language the store's own login chose for its dashboard, or null. */
export async function findStoreDashboardLocale(db: DbOrTx, merchantId: number): Promise<string | null> {
  const [row] = await db.select({ locale: merchants.dashboardLocale }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row?.locale ?? null;
}
