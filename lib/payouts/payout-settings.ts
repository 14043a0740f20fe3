import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { Db, DbOrTx } from "@/lib/db/types";
import { findPayoutThreshold, upsertPayoutThreshold } from "./queries";

export async function getPayoutSettings(db: DbOrTx, merchantId: number) {
  return { approval_threshold_usd: await findPayoutThreshold(db, merchantId) };
}

/** Sets the approval threshold (USD; null: no approval). Batches saved from now on are judged by it. Audited. */
export async function setPayoutSettings(db: Db, merchantId: number, threshold: string | null, now = new Date()) {
  return db.transaction(async (tx) => {
    const before = await findPayoutThreshold(tx, merchantId);
    await upsertPayoutThreshold(tx, merchantId, threshold, now);
    await recordAudit(tx, {
      merchantId,
      action: "payout.settings_updated",
      target: "payout_settings",
      before: { approval_threshold_usd: before },
      after: { approval_threshold_usd: threshold },
      now,
    });
    return { approval_threshold_usd: threshold };
  });
}
