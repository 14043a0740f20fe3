import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { roleAllows } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { actorLabel, type PayoutActor } from "./actor";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { getPayoutOrThrow } from "./get-payout-or-throw";
import { recordPayoutEvent } from "./payout-events";
import { listPayoutLegs, updatePayoutBatch } from "./queries";
import { serializePayout } from "./serialize";
import { assertDraft } from "./save-payout";

/**
 * A second member approves a draft: a login (never an API key) whose role manages wallets (owner,
 * admin: a payout moves the wallet's money), and not the member who made the batch. The batch is
 * then frozen (no edits) and may be signed. Audited as payout.approved.
 */
export async function approvePayout(db: Db, actor: PayoutActor, id: number, now = new Date()) {
  if (actor.userId === null || actor.role === null) throw new ApiError("PAYOUT_APPROVAL_REFUSED", "A batch is approved by a member's login, not an API key.");
  if (!roleAllows(actor.role, "manage_wallets"))
    throw new ApiError("PAYOUT_APPROVAL_REFUSED", `Your role in this account (${actor.role}) cannot approve payouts; an owner or admin can.`);
  const answer = await db.transaction(async (tx) => {
    const batch = await getPayoutOrThrow(tx, actor.merchantId, id, true);
    assertDraft(batch);
    if (batch.createdByUserId === actor.userId) throw new ApiError("PAYOUT_APPROVAL_REFUSED", "A batch is approved by a second member: you made this one.");
    const approved = await updatePayoutBatch(tx, batch.id, { status: "approved", approvedBy: actorLabel(actor), approvedAt: now, updatedAt: now });
    await recordAudit(tx, {
      merchantId: actor.merchantId,
      action: "payout.approved",
      target: `payout:${batch.id}`,
      after: { total: batch.totalAmount, currency: batch.currency, usd_value: batch.usdValue },
      now,
    });
    const legs = await listPayoutLegs(tx, batch.id);
    await recordPayoutEvent(tx, "payout.approved", approved, legs, now);
    return serializePayout(approved, legs);
  });
  await notifyDeliveriesDue();
  return answer;
}
