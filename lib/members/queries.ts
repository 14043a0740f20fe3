import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/types";
import { invitations, memberships, merchants } from "@/lib/db/schema";

// ─── memberships ───

export async function insertMembership(db: DbOrTx, values: typeof memberships.$inferInsert) {
  const [row] = await db.insert(memberships).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findMembership(db: DbOrTx, merchantId: number, userId: number) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** The accounts a login belongs to, its own first, then in the order it joined them. */
export async function listAccountsOfUser(db: DbOrTx, userId: number) {
  return db
    .select({ merchantId: memberships.merchantId, role: memberships.role, shopName: merchants.shopName })
    .from(memberships)
    .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
    .where(eq(memberships.userId, userId))
    .orderBy(sql`${memberships.merchantId} <> ${userId}`, asc(memberships.createdAt), asc(memberships.id));
}

export async function listMembersOfAccount(db: DbOrTx, merchantId: number) {
  return db
    .select({ userId: memberships.userId, role: memberships.role, username: merchants.username, email: merchants.email, createdAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(merchants, eq(merchants.id, memberships.userId))
    .where(eq(memberships.merchantId, merchantId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

/** Holds the account's row until the transaction ends: member changes of one account happen one at a time (the last-owner rule). */
export async function lockAccount(db: DbOrTx, merchantId: number): Promise<boolean> {
  const rows = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
  return rows.length > 0;
}

export async function countOwners(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.role, "owner")));
  return Number(row?.n ?? 0);
}

export async function updateMembershipRole(db: DbOrTx, merchantId: number, userId: number, role: string, now: Date) {
  const [row] = await db
    .update(memberships)
    .set({ role, updatedAt: now })
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteMembership(db: DbOrTx, merchantId: number, userId: number) {
  const [row] = await db
    .delete(memberships)
    .where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)))
    .returning();
  return row ?? null;
}

// ─── invitations ───

export async function insertInvitation(db: DbOrTx, values: typeof invitations.$inferInsert) {
  const [row] = await db.insert(invitations).values(values).returning();
  return row!;
}

/** Spends an open invitation atomically; null when there is none (unknown, used, revoked, expired, or spent by someone first). */
export async function spendInvitation(db: DbOrTx, tokenHash: string, acceptedBy: number | null, now: Date) {
  const [row] = await db
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy })
    .where(and(eq(invitations.tokenHash, tokenHash), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .returning();
  return row ?? null;
}

export async function findOpenInvitationByHash(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      merchantId: invitations.merchantId,
      shopName: merchants.shopName,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .innerJoin(merchants, eq(merchants.id, invitations.merchantId))
    .where(and(eq(invitations.tokenHash, tokenHash), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function listOpenInvitations(db: DbOrTx, merchantId: number, now: Date) {
  return db
    .select()
    .from(invitations)
    .where(and(eq(invitations.merchantId, merchantId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
}

export async function revokeInvitation(db: DbOrTx, merchantId: number, id: number, now: Date) {
  const [row] = await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.merchantId, merchantId), eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning();
  return row ?? null;
}

/** Earlier open invitations of the same address to the account stop working when a new one is sent. */
export async function revokeOpenInvitationsTo(db: DbOrTx, merchantId: number, email: string, now: Date) {
  await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.merchantId, merchantId),
        sql`lower(${invitations.email}) = lower(${email})`,
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    );
}
