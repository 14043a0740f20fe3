import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { idParams, testEndpointBody } from "@/lib/webhooks/schemas";
import { sendTestWebhook } from "@/lib/webhooks/send-test-webhook";
import { serializeAttempt } from "@/lib/webhooks/serialize";

// POST /api/webhook-endpoints/{id}/test/ – send a signed sample of an event now and return the attempt
export const POST = withApi(
  { route: "POST /api/webhook-endpoints/[id]/test", params: idParams, body: testEndpointBody },
  async ({ db, params, body, principal }) => {
    const { delivery, attempt } = await sendTestWebhook(db, principal.merchantId, params.id, body.event);
    return ok(
      { ...serializeAttempt(attempt), webhook_id: delivery.messageId, event: delivery.eventType, url: delivery.url, succeeded: delivery.status === "succeeded" },
      delivery.status === "succeeded" ? "Test event delivered." : "Test event was not acknowledged.",
    );
  },
);
