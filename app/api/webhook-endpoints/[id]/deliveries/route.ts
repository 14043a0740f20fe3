import { keysetPage, keysetWindow } from "@/lib/http/pagination";
import { encodeCursor } from "@/lib/list-window";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getEndpointOrThrow } from "@/lib/webhooks/get-endpoint-or-throw";
import { attemptsOf, deliverySortKey, listEndpointDeliveries } from "@/lib/webhooks/queries";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeDelivery } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/webhook-endpoints/{id}/deliveries/ – the endpoint's delivery log, newest first, each with its attempts
  GET: withApi(webhookRoutes.listDeliveries, async ({ db, url, params, query, principal }) => {
    const endpoint = await getEndpointOrThrow(db, principal.merchantId, params.id);
    const window = keysetWindow(query, "-created_at", deliverySortKey.length);
    const { rows, count, nextKey } = await listEndpointDeliveries(db, endpoint, query.status, window);
    const attempts = await attemptsOf(
      db,
      rows.map((row) => row.id),
    );
    const nextCursor = nextKey ? encodeCursor({ ordering: "-created_at", key: nextKey }) : null;
    return keysetPage(
      url,
      query,
      count,
      rows.map((row) => serializeDelivery(row, attempts)),
      nextCursor,
    );
  }),
});
