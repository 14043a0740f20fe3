import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { attemptsOf } from "@/lib/webhooks/queries";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeDelivery } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/webhook-deliveries/{id}/redeliver/ – send a delivery again (same webhook-id, fresh retry schedule)
  POST: withApi(webhookRoutes.redeliver, async ({ db, params, principal }) => {
    const delivery = await redeliverWebhook(db, principal.merchantId, params.id);
    await notifyDeliveriesDue();
    return ok(serializeDelivery(delivery, await attemptsOf(db, [delivery.id])), "Redelivery scheduled.");
  }),
});
