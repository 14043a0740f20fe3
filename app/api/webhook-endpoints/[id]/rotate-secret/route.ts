import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { rotateEndpointSecret } from "@/lib/webhooks/rotate-endpoint-secret";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeEndpointWithSecret } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/webhook-endpoints/{id}/rotate-secret/ – new signing secret; the old one also signs for 24 more hours
  POST: withApi(webhookRoutes.rotateEndpointSecret, async ({ db, params, principal }) => {
    const endpoint = await rotateEndpointSecret(db, principal.merchantId, params.id);
    return ok(
      { ...serializeEndpointWithSecret(endpoint), previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null },
      "Secret rotated. Store the new secret now.",
    );
  }),
});
