import "server-only";
import { currentActor } from "@/lib/audit/context";
import type { PayoutBatch, PayoutLeg } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { eventBody } from "@/lib/webhooks/outbox";
import { insertAccountEvent, insertDeliveries, subscribedEndpoints } from "@/lib/webhooks/queries";
import type { PayoutEventType } from "@/lib/webhooks/schemas";
import { serializePayout } from "./serialize";

/**
 * Records a payout.* event (kept with the account's events, like wallet.updated) and queues one
 * delivery to each active endpoint subscribed to it, in the caller's transaction; `data` is the
 * batch as GET shows it after the change. After the commit, `notifyDeliveriesDue()` sends them.
 */
export async function recordPayoutEvent(tx: DbOrTx, type: PayoutEventType, batch: PayoutBatch, legs: PayoutLeg[], now: Date): Promise<void> {
  const actor = currentActor();
  const id = newId("event");
  const data = serializePayout(batch, legs);
  await insertAccountEvent(tx, { id, merchantId: batch.merchantId, type, data, actor: actor.kind, clientIp: actor.clientIp, createdAt: now });
  const endpoints = await subscribedEndpoints(tx, batch.merchantId, type);
  if (endpoints.length === 0) return;
  const body = eventBody(id, type, now, null, data);
  await insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      messageId: newId("webhookMessage"),
      merchantId: batch.merchantId,
      eventId: null,
      endpointId: endpoint.id,
      eventType: type,
      url: endpoint.url,
      body,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
}
