"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { notifyDeliveriesDue } from "@/lib/jobs/notify";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";

/** Same use-case as POST /api/webhook-deliveries/{id}/redeliver/. */
export const redeliverAction = authedAction(z.object({ id: z.string().max(20) }), async ({ id }, { db, merchantId }) => {
  const delivery = await redeliverWebhook(db, merchantId, id);
  await notifyDeliveriesDue();
  return { id: delivery.id, status: delivery.status };
});
