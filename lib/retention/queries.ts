import { sql, type SQL } from "drizzle-orm";
import { idempotencyKeys, refreshTokens, webhookDeliveries } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/map-row";
import type { DbOrTx } from "@/lib/db/types";

/**
 * One bounded delete: at most `limit` rows, oldest first, each statement its own short
 * transaction. Rows another session holds (a request replaying an idempotency key, a delivery
 * being finished) are skipped, not waited for (SKIP LOCKED): the next run takes them.
 */
async function deleteBatch(db: DbOrTx, statement: SQL): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`));
  return Number(row?.n ?? 0);
}

/** Idempotency answers past their 24 hours. */
export function deleteExpiredIdempotencyBatch(db: DbOrTx, now: Date, limit: number): Promise<number> {
  return deleteBatch(
    db,
    sql`delete from ${idempotencyKeys} where (merchant_id, key) in (
      select merchant_id, key from ${idempotencyKeys} where expires_at < ${now.toISOString()}::timestamptz
      order by expires_at limit ${limit} for update skip locked)`,
  );
}

/** Expired sessions: refresh tokens past their expiry (spent, revoked or not: none can be used any more). */
export function deleteExpiredSessionsBatch(db: DbOrTx, now: Date, limit: number): Promise<number> {
  return deleteBatch(
    db,
    sql`delete from ${refreshTokens} where id in (
      select id from ${refreshTokens} where expires_at < ${now.toISOString()}::timestamptz
      order by expires_at limit ${limit} for update skip locked)`,
  );
}

/** Delivered webhooks (succeeded) completed before `before`: the delivery, its payload and its attempts (cascade). Pending and failed ones stay. */
export function deleteDeliveredWebhooksBatch(db: DbOrTx, before: Date, limit: number): Promise<number> {
  return deleteBatch(
    db,
    sql`delete from ${webhookDeliveries} where id in (
      select id from ${webhookDeliveries} where status = 'succeeded' and completed_at < ${before.toISOString()}::timestamptz
      order by completed_at limit ${limit} for update skip locked)`,
  );
}
