import { and, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/types";
import { recoveryCodes, secondFactors } from "@/lib/db/schema";

export async function findTotpFactor(db: DbOrTx, merchantId: number) {
  const [row] = await db
    .select()
    .from(secondFactors)
    .where(and(eq(secondFactors.merchantId, merchantId), eq(secondFactors.kind, "totp")))
    .limit(1);
  return row ?? null;
}

/** Whether the merchant has any enabled second factor. */
export async function hasEnabledSecondFactor(db: DbOrTx, merchantId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: secondFactors.id })
    .from(secondFactors)
    .where(and(eq(secondFactors.merchantId, merchantId), isNotNull(secondFactors.enabledAt)))
    .limit(1);
  return Boolean(row);
}

/** Starts (or restarts) a TOTP enrolment; an enabled factor is left alone (returns null). */
export async function upsertPendingTotp(db: DbOrTx, merchantId: number, secretCiphertext: string, now: Date) {
  const [row] = await db
    .insert(secondFactors)
    .values({ merchantId, kind: "totp", secretCiphertext, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: secondFactors.merchantId,
      targetWhere: eq(secondFactors.kind, "totp"),
      set: { secretCiphertext, lastUsedStep: null, createdAt: now, updatedAt: now },
      setWhere: isNull(secondFactors.enabledAt),
    })
    .returning();
  return row ?? null;
}

/**
 * Records that a code of `step` was accepted, only if no code of that step or a later one was:
 * false when another request got there first (the code was replayed).
 */
export async function spendTotpStep(db: DbOrTx, factorId: number, step: number, now: Date, enable = false): Promise<boolean> {
  const rows = await db
    .update(secondFactors)
    .set({ lastUsedStep: step, updatedAt: now, ...(enable ? { enabledAt: now } : {}) })
    .where(and(eq(secondFactors.id, factorId), or(isNull(secondFactors.lastUsedStep), lt(secondFactors.lastUsedStep, step))))
    .returning({ id: secondFactors.id });
  return rows.length === 1;
}

export async function deleteTotpFactor(db: DbOrTx, merchantId: number) {
  await db.delete(secondFactors).where(and(eq(secondFactors.merchantId, merchantId), eq(secondFactors.kind, "totp")));
}

export async function deleteSecondFactors(db: DbOrTx, merchantId: number) {
  await db.delete(secondFactors).where(eq(secondFactors.merchantId, merchantId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.merchantId, merchantId));
}

export async function replaceRecoveryCodes(db: DbOrTx, merchantId: number, codeHashes: string[], now: Date) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.merchantId, merchantId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ merchantId, codeHash, createdAt: now })));
}

/** Marks an unused recovery code used; false if it is not one of the merchant's or was used already. */
export async function spendRecoveryCode(db: DbOrTx, merchantId: number, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.merchantId, merchantId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.merchantId, merchantId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
