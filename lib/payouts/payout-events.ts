import "server-only";
import { currentActor } from "@/lib/audit/context";
import type { PayoutBatch, PayoutLeg } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { recordAccountEvent } from "@/lib/webhooks/outbox";
import { subscribedEndpoints } from "@/lib/webhooks/queries";
import type { PayoutEventType } from "@/lib/webhooks/schemas";
import { serializePayout } from "./serialize";

/**
 * Records a payout.* event (kept with the account's events, like wallet.updated) and queues one
 * delivery to each active endpoint subscribed to it, in the caller's transaction; `data` is the
 * batch as GET shows it after the change. After the commit, `notifyDeliveriesDue()` sends them.
 */
export async function recordPayoutEvent(tx: DbOrTx, type: PayoutEventType, batch: PayoutBatch, legs: PayoutLeg[], now: Date): Promise<void> {
  const endpoints = await subscribedEndpoints(tx, batch.merchantId, type);
  await recordAccountEvent(tx, { merchantId: batch.merchantId, type, data: serializePayout(batch, legs), actor: currentActor() }, endpoints, now);
}
