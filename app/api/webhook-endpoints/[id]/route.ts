import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { deleteEndpoint } from "@/lib/webhooks/delete-endpoint";
import { getEndpointOrThrow } from "@/lib/webhooks/get-endpoint-or-throw";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeEndpoint } from "@/lib/webhooks/serialize";
import { updateEndpoint } from "@/lib/webhooks/update-endpoint";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/webhook-endpoints/{id}/ – one endpoint (without its secret)
  GET: withApi(webhookRoutes.getEndpoint, async ({ db, params, principal }) =>
    ok(serializeEndpoint(await getEndpointOrThrow(db, principal.merchantId, params.id))),
  ),

  // PUT /api/webhook-endpoints/{id}/ – change any of url, events, description, is_active
  PUT: withApi(webhookRoutes.updateEndpoint, async ({ db, params, body, principal }) =>
    ok(serializeEndpoint(await updateEndpoint(db, principal.merchantId, params.id, body)), "Webhook endpoint updated."),
  ),

  // DELETE /api/webhook-endpoints/{id}/ – remove an endpoint and its delivery log
  DELETE: withApi(webhookRoutes.deleteEndpoint, async ({ db, params, principal }) =>
    ok(serializeEndpoint(await deleteEndpoint(db, principal.merchantId, params.id)), "Webhook endpoint deleted."),
  ),
});
