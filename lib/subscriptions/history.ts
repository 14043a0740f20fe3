import "server-only";
import type { Subscription } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { recordResourceEvent } from "@/lib/webhooks/outbox";
import { countSubscriptionEvents, insertSubscriptionEvent } from "./queries";
import { serializeSubscription } from "./serialize";

/** The history entries merchants hear of by webhook; pause and resume are their own doing. */
const webhookTypes: Record<string, string> = {
  created: "subscription.created",
  charged: "subscription.charged",
  payment_failed: "subscription.payment_failed",
  past_due: "subscription.past_due",
  canceled: "subscription.canceled",
  charge_reorged: "subscription.charge_reorged",
};

/**
 * Appends an entry to a subscription's history and, for the kinds merchants subscribe to, queues
 * the webhook (numbered by the entry's place in the history) in the same transaction. True when
 * deliveries were queued: the caller kicks the delivery loop after its commit.
 */
export async function recordSubscriptionHistory(
  tx: DbOrTx,
  subscription: Subscription,
  planId: string,
  kind: string,
  detail: Record<string, unknown> | null,
  now: Date,
): Promise<boolean> {
  await insertSubscriptionEvent(tx, {
    subscriptionId: subscription.id,
    merchantId: subscription.merchantId,
    kind,
    status: subscription.status,
    detail,
    createdAt: now,
  });
  const type = webhookTypes[kind];
  if (!type) return false;
  const sequence = await countSubscriptionEvents(tx, subscription.id);
  const { deliveries } = await recordResourceEvent(
    tx,
    { merchantId: subscription.merchantId, type, sequence, data: serializeSubscription(subscription, planId) },
    now,
  );
  return deliveries.length > 0;
}
