import "server-only";
import { getDb } from "@/lib/db/client";
import type { DbOrTx } from "@/lib/db/types";
import { dueUndispatchedDeliveries, markDispatched } from "@/lib/webhooks/queries";
import { taskNames, type Kicker } from "@/lib/jobs/kick";
import { inngest } from "@/lib/jobs/inngest/client";
import { webhookDeliveryDue } from "./events";

type Sender = (events: ReturnType<typeof webhookDeliveryDue.create>[]) => Promise<unknown>;

/**
 * Hands due deliveries to Inngest: one event each, then marks them handed over
 * (`next_attempt_at` null) so they are not sent again. The event id is deterministic (delivery
 * id + due time), so if the process dies between the send and the mark, the next dispatch sends
 * the same ids and Inngest drops the duplicates; a redelivery is due at a new time, so it starts
 * a new run.
 */
export async function dispatchDueDeliveries(db: DbOrTx, options: { limit?: number; send?: Sender } = {}): Promise<number> {
  const send: Sender = options.send ?? ((events) => inngest.send(events));
  let total = 0;
  for (;;) {
    const due = (await dueUndispatchedDeliveries(db, new Date(), options.limit ?? 500)).map((d) => ({ id: d.id, nextAttemptAt: d.nextAttemptAt! }));
    if (due.length === 0) return total;
    await send(due.map((d) => webhookDeliveryDue.create({ deliveryId: d.id }, { id: `webhook-delivery-${d.id}-${d.nextAttemptAt.getTime()}` })));
    await markDispatched(db, due, new Date());
    total += due.length;
    if (due.length < (options.limit ?? 500)) return total;
  }
}

/**
 * What a kick means under Inngest (registered at server start): recorded events hand their due
 * deliveries over at once. Other tasks are not kicked: each chain's watch reschedules itself, and
 * the cron functions keep their schedule.
 */
export function inngestKicker(options: { send?: Sender } = {}): Kicker {
  return {
    async kick(taskName) {
      if (taskName === taskNames.deliverWebhooks) await dispatchDueDeliveries(await getDb(), options);
    },
  };
}
