import { and, asc, eq, gt, isNotNull, lt } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/types";
import { secondFactors, webauthnChallenges } from "@/lib/db/schema";

export async function listPasskeys(db: DbOrTx, merchantId: number) {
  return db
    .select()
    .from(secondFactors)
    .where(and(eq(secondFactors.merchantId, merchantId), eq(secondFactors.kind, "passkey"), isNotNull(secondFactors.enabledAt)))
    .orderBy(asc(secondFactors.id));
}

export async function findPasskeyByCredentialId(db: DbOrTx, merchantId: number, credentialId: string) {
  const [row] = await db
    .select()
    .from(secondFactors)
    .where(and(eq(secondFactors.merchantId, merchantId), eq(secondFactors.kind, "passkey"), eq(secondFactors.credentialId, credentialId)))
    .limit(1);
  return row ?? null;
}

export async function insertPasskey(
  db: DbOrTx,
  values: { merchantId: number; credentialId: string; publicKey: string; signCount: number; transports: string[]; name: string },
  now: Date,
) {
  const [row] = await db
    .insert(secondFactors)
    .values({ ...values, kind: "passkey", transports: JSON.stringify(values.transports), enabledAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: secondFactors.credentialId })
    .returning();
  return row ?? null;
}

/** Stores the counter of an accepted assertion, only if no other request moved it meanwhile (false: raced, treat as replay). */
export async function advancePasskeyCounter(db: DbOrTx, id: number, previous: number, next: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(secondFactors)
    .set({ signCount: next, lastUsedAt: now, updatedAt: now })
    .where(and(eq(secondFactors.id, id), eq(secondFactors.signCount, previous)))
    .returning({ id: secondFactors.id });
  return rows.length === 1;
}

export async function deletePasskey(db: DbOrTx, merchantId: number, id: number) {
  const rows = await db
    .delete(secondFactors)
    .where(and(eq(secondFactors.id, id), eq(secondFactors.merchantId, merchantId), eq(secondFactors.kind, "passkey")))
    .returning();
  return rows[0] ?? null;
}

export async function insertWebauthnChallenge(db: DbOrTx, merchantId: number, purpose: string, challengeHash: string, expiresAt: Date, now: Date) {
  await db.delete(webauthnChallenges).where(and(eq(webauthnChallenges.merchantId, merchantId), lt(webauthnChallenges.expiresAt, now)));
  await db.insert(webauthnChallenges).values({ merchantId, purpose, challengeHash, expiresAt, createdAt: now });
}

/** Spends a challenge: true once for an unexpired challenge of that merchant and purpose, false after. */
export async function spendWebauthnChallenge(db: DbOrTx, merchantId: number, purpose: string, challengeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challengeHash, challengeHash),
        eq(webauthnChallenges.merchantId, merchantId),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return rows.length === 1;
}
