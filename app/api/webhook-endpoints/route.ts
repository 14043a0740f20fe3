import { created } from "@/lib/http/envelope";
import { page, pageQuery, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { createEndpoint } from "@/lib/webhooks/create-endpoint";
import { listEndpoints } from "@/lib/webhooks/queries";
import { createEndpointBody } from "@/lib/webhooks/schemas";
import { serializeEndpoint } from "@/lib/webhooks/serialize";

// GET /api/webhook-endpoints/ – the merchant's webhook endpoints, newest first (never their secrets)
export const GET = withApi({ route: "GET /api/webhook-endpoints", query: pageQuery }, async ({ db, url, query, principal }) => {
  const { rows, count } = await listEndpoints(db, principal.merchantId, pageWindow(query));
  return page(url, query, count, rows.map((row) => serializeEndpoint(row)));
});

// POST /api/webhook-endpoints/ – add an endpoint; its signing secret is in this response (and on rotation) only
export const POST = withApi({ route: "POST /api/webhook-endpoints", body: createEndpointBody }, async ({ db, body, principal }) =>
  created(serializeEndpoint(await createEndpoint(db, principal.merchantId, body), { withSecret: true }), "Webhook endpoint created. Store the secret now."),
);
