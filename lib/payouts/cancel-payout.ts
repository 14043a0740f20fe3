import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { Db } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import type { PayoutActor } from "./actor";
import { getPayoutOrThrow, showPayout } from "./get-payout-or-throw";
import { releaseClaims, updatePayoutBatch } from "./queries";

/** Cancels a draft or approved batch (nothing sent yet); a sent batch is settled by the chain. Audited. */
export async function cancelPayout(db: Db, actor: PayoutActor, id: number, now = new Date()) {
  return db.transaction(async (tx) => {
    const batch = await getPayoutOrThrow(tx, actor.merchantId, id, true);
    if (batch.status !== "draft" && batch.status !== "approved")
      throw new ApiError("PAYOUT_NOT_EDITABLE", `Only a draft or approved batch can be cancelled; this one is ${batch.status}.`);
    const cancelled = await updatePayoutBatch(tx, batch.id, { status: "cancelled", updatedAt: now });
    await releaseClaims(tx, batch.id, now);
    await recordAudit(tx, { merchantId: actor.merchantId, action: "payout.cancelled", target: `payout:${batch.id}`, before: { status: batch.status }, now });
    return showPayout(tx, cancelled);
  });
}
