import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { rotateEndpointSecret } from "@/lib/webhooks/rotate-endpoint-secret";
import { idParams } from "@/lib/webhooks/schemas";
import { serializeEndpoint } from "@/lib/webhooks/serialize";

// POST /api/webhook-endpoints/{id}/rotate-secret/ – new signing secret; the old one also signs for 24 more hours
export const POST = withApi({ route: "POST /api/webhook-endpoints/[id]/rotate-secret", params: idParams }, async ({ db, params, principal }) => {
  const endpoint = await rotateEndpointSecret(db, principal.merchantId, params.id);
  return ok(
    { ...serializeEndpoint(endpoint, { withSecret: true }), previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null },
    "Secret rotated. Store the new secret now.",
  );
});
