import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { sendTestWebhook } from "@/lib/webhooks/send-test-webhook";
import { serializeAttempt } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/webhook-endpoints/{id}/test/ – send a signed sample of an event now and return the attempt
  POST: withApi(webhookRoutes.testEndpoint, async ({ db, params, body, principal }) => {
    const { delivery, attempt } = await sendTestWebhook(db, principal.merchantId, params.id, body.event);
    return ok(
      {
        ...serializeAttempt(attempt),
        webhook_id: delivery.messageId,
        event: delivery.eventType,
        url: delivery.url,
        succeeded: delivery.status === "succeeded",
      },
      delivery.status === "succeeded" ? "Test event delivered." : "Test event was not acknowledged.",
    );
  }),
});
