import { page, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { getEndpointOrThrow } from "@/lib/webhooks/get-endpoint-or-throw";
import { attemptsOf, listEndpointDeliveries } from "@/lib/webhooks/queries";
import { idParams, listDeliveriesQuery } from "@/lib/webhooks/schemas";
import { serializeDelivery } from "@/lib/webhooks/serialize";

// GET /api/webhook-endpoints/{id}/deliveries/ – the endpoint's delivery log, newest first, each with its attempts
export const GET = withApi(
  { route: "GET /api/webhook-endpoints/[id]/deliveries", params: idParams, query: listDeliveriesQuery },
  async ({ db, url, params, query, principal }) => {
    const endpoint = await getEndpointOrThrow(db, principal.merchantId, params.id);
    const { rows, count } = await listEndpointDeliveries(db, principal.merchantId, endpoint.id, query.status, pageWindow(query));
    const attempts = await attemptsOf(db, rows.map((row) => row.id));
    return page(url, query, count, rows.map((row) => serializeDelivery(row, attempts)));
  },
);
