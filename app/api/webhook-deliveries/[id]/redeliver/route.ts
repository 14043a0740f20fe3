import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { attemptsOf } from "@/lib/webhooks/queries";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { idParams } from "@/lib/webhooks/schemas";
import { serializeDelivery } from "@/lib/webhooks/serialize";

// POST /api/webhook-deliveries/{id}/redeliver/ – send a delivery again (same webhook-id, fresh retry schedule)
export const POST = withApi({ route: "POST /api/webhook-deliveries/[id]/redeliver", params: idParams }, async ({ db, params, principal }) => {
  const delivery = await redeliverWebhook(db, principal.merchantId, params.id);
  await notifyDeliveriesDue();
  return ok(serializeDelivery(delivery, await attemptsOf(db, [delivery.id])), "Redelivery scheduled.");
});
