import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { deleteDeliveredWebhooksBatch, deleteExpiredIdempotencyBatch, deleteExpiredSessionsBatch } from "./queries";

/** Rows per delete statement: each batch locks at most this many rows, for milliseconds. */
export const retentionBatchSize = 1000;
const dayMs = 24 * 60 * 60 * 1000;

export interface RetentionOptions {
  now?: Date;
  batchSize?: number;
  /** Delivered webhooks are kept this many days (default WEBHOOK_PAYLOAD_RETENTION_DAYS). */
  deliveredWebhookDays?: number;
  /** Stops between batches when aborted (the job driver's run deadline); the next run goes on. */
  signal?: AbortSignal;
}

export interface RetentionOutcome {
  idempotencyKeys: number;
  sessions: number;
  deliveredWebhooks: number;
  /** Delete statements run. */
  batches: number;
}

/**
 * Deletes what is only needed for a while: idempotency answers after their 24 hours, expired
 * sessions, and delivered webhooks (payload and attempts) after the retention period. Each kind
 * goes in batches of `batchSize` rows, one short statement each, until a batch comes back short:
 * no statement holds locks on more than a batch, and a backlog of millions drains batch by batch.
 */
export async function runRetention(db: DbOrTx, options: RetentionOptions = {}): Promise<RetentionOutcome> {
  const now = options.now ?? new Date();
  const limit = options.batchSize ?? retentionBatchSize;
  const deliveredBefore = new Date(now.getTime() - (options.deliveredWebhookDays ?? env.WEBHOOK_PAYLOAD_RETENTION_DAYS) * dayMs);
  const outcome: RetentionOutcome = { idempotencyKeys: 0, sessions: 0, deliveredWebhooks: 0, batches: 0 };
  const drain = async (field: "idempotencyKeys" | "sessions" | "deliveredWebhooks", batch: () => Promise<number>) => {
    for (;;) {
      if (options.signal?.aborted) return;
      const deleted = await batch();
      outcome.batches++;
      outcome[field] += deleted;
      if (deleted < limit) return;
    }
  };
  await drain("idempotencyKeys", () => deleteExpiredIdempotencyBatch(db, now, limit));
  await drain("sessions", () => deleteExpiredSessionsBatch(db, now, limit));
  await drain("deliveredWebhooks", () => deleteDeliveredWebhooksBatch(db, deliveredBefore, limit));
  return outcome;
}
