import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createEndpoint } from "@/lib/webhooks/create-endpoint";
import { listEndpoints } from "@/lib/webhooks/queries";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeEndpoint, serializeEndpointWithSecret } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/webhook-endpoints/ – the merchant's webhook endpoints, newest first (never their secrets)
  GET: withApi(webhookRoutes.listEndpoints, async ({ db, url, query, principal }) => {
    const { rows, count } = await listEndpoints(db, principal.merchantId, pageWindow(query));
    return page(
      url,
      query,
      count,
      rows.map((row) => serializeEndpoint(row)),
    );
  }),

  // POST /api/webhook-endpoints/ – add an endpoint; its signing secret is in this response (and on rotation) only
  POST: withApi(webhookRoutes.createEndpoint, async ({ db, body, principal }) =>
    created(
      serializeEndpointWithSecret(await createEndpoint(db, principal.merchantId, body, new Date(), { userId: principal.userId })),
      "Webhook endpoint created. Store the secret now.",
    ),
  ),
});
