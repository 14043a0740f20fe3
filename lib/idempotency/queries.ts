import { and, eq, isNull, sql } from "drizzle-orm";
import { idempotencyKeys, type IdempotencyKey } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export interface IdempotencyClaim {
  merchantId: number;
  key: string;
  requestHash: string;
  lockToken: string;
  requestId: string;
  now: Date;
  expiresAt: Date;
  /** An unanswered claim older than this is taken over (its process died mid-request). */
  staleBefore: Date;
}

/**
 * Claims a key in one statement: inserts it, or takes over a row that has expired, or one whose
 * first request was abandoned (no answer since `staleBefore`) for the very same request. Returns
 * the row as it now stands: ours when its lock token is ours, else the earlier one.
 */
export async function claimIdempotencyKey(db: DbOrTx, claim: IdempotencyClaim): Promise<IdempotencyKey> {
  const values = {
    merchantId: claim.merchantId,
    key: claim.key,
    requestHash: claim.requestHash,
    lockToken: claim.lockToken,
    requestId: claim.requestId,
    status: null,
    responseBody: null,
    responseHeaders: null,
    createdAt: claim.now,
    expiresAt: claim.expiresAt,
  };
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [idempotencyKeys.merchantId, idempotencyKeys.key],
      set: values,
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${claim.now.toISOString()}::timestamptz
        or (${idempotencyKeys.status} is null and ${idempotencyKeys.createdAt} < ${claim.staleBefore.toISOString()}::timestamptz
            and ${idempotencyKeys.requestHash} = ${claim.requestHash})`,
    })
    .returning();
  if (claimed) return claimed;
  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.merchantId, claim.merchantId), eq(idempotencyKeys.key, claim.key)))
    .limit(1);
  // Deleted between the two statements (cleanup, or a released claim): claim it again.
  return existing ?? claimIdempotencyKey(db, claim);
}

/** Stores the answer of the request holding the claim. */
export async function saveIdempotentResponse(
  db: DbOrTx,
  merchantId: number,
  key: string,
  lockToken: string,
  response: { status: number; body: string; headers: Record<string, string> },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: response.status, responseBody: response.body, responseHeaders: response.headers })
    .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.lockToken, lockToken)));
}

/** Lets go of an unanswered claim (the request ended in a 5xx), so a retry runs again. */
export async function releaseIdempotencyKey(db: DbOrTx, merchantId: number, key: string, lockToken: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.lockToken, lockToken), isNull(idempotencyKeys.status)),
    );
}
