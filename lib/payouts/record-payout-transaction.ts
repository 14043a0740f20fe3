import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { Db } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import type { PayoutActor } from "./actor";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { getPayoutOrThrow } from "./get-payout-or-throw";
import { recordPayoutEvent } from "./payout-events";
import { isPayoutTransactionTaken, listPayoutLegs, updatePayoutBatch } from "./queries";
import { isSignable, serializePayout } from "./serialize";

/**
 * The merchant reports the batch transaction its wallet sent: the batch becomes `sent` and the
 * engine (lib/engine/payouts-tick.ts) reads its receipt, settles each leg from the contract's
 * events and confirms it. Only a signable batch (a draft without approval needed, or approved:
 * PAYOUT_APPROVAL_REQUIRED otherwise), and a transaction no other batch holds. Audited.
 */
export async function recordPayoutTransaction(db: Db, actor: PayoutActor, id: number, txHash: string, now = new Date()) {
  const answer = await db.transaction(async (tx) => {
    const batch = await getPayoutOrThrow(tx, actor.merchantId, id, true);
    if (batch.status === "draft" && batch.approvalRequired) {
      throw new ApiError("PAYOUT_APPROVAL_REQUIRED", `This batch (${batch.usdValue ?? "unknown"} USD) needs another member's approval before it is signed.`);
    }
    if (!isSignable(batch)) throw new ApiError("PAYOUT_NOT_EDITABLE", `Only a draft or approved batch takes its transaction; this one is ${batch.status}.`);
    const hash = txHash.toLowerCase();
    if (await isPayoutTransactionTaken(tx, batch.blockchainId, hash)) throw validationError({ tx_hash: ["Another batch already holds this transaction."] });
    const sent = await updatePayoutBatch(tx, batch.id, { status: "sent", txHash: hash, sentAt: now, updatedAt: now });
    await recordAudit(tx, { merchantId: actor.merchantId, action: "payout.sent", target: `payout:${batch.id}`, after: { tx_hash: hash }, now });
    const legs = await listPayoutLegs(tx, batch.id);
    await recordPayoutEvent(tx, "payout.sent", sent, legs, now);
    return serializePayout(sent, legs);
  });
  await notifyDeliveriesDue();
  return answer;
}
