import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { deleteEndpoint } from "@/lib/webhooks/delete-endpoint";
import { getEndpointOrThrow } from "@/lib/webhooks/get-endpoint-or-throw";
import { idParams, updateEndpointBody } from "@/lib/webhooks/schemas";
import { serializeEndpoint } from "@/lib/webhooks/serialize";
import { updateEndpoint } from "@/lib/webhooks/update-endpoint";

// GET /api/webhook-endpoints/{id}/ – one endpoint (without its secret)
export const GET = withApi({ route: "GET /api/webhook-endpoints/[id]", params: idParams }, async ({ db, params, principal }) =>
  ok(serializeEndpoint(await getEndpointOrThrow(db, principal.merchantId, params.id))),
);

// PUT /api/webhook-endpoints/{id}/ – change any of url, events, description, is_active
export const PUT = withApi({ route: "PUT /api/webhook-endpoints/[id]", params: idParams, body: updateEndpointBody }, async ({ db, params, body, principal }) =>
  ok(serializeEndpoint(await updateEndpoint(db, principal.merchantId, params.id, body)), "Webhook endpoint updated."),
);

// DELETE /api/webhook-endpoints/{id}/ – remove an endpoint and its delivery log
export const DELETE = withApi({ route: "DELETE /api/webhook-endpoints/[id]", params: idParams }, async ({ db, params, principal }) =>
  ok(serializeEndpoint(await deleteEndpoint(db, principal.merchantId, params.id)), "Webhook endpoint deleted."),
);
