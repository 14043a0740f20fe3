import { keysetPage, keysetWindow } from "@/lib/http/pagination";
import { encodeCursor } from "@/lib/list-window";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { eventSortKey, listEvents } from "@/lib/webhooks/queries";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeEvent } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/events/ – the merchant's order events (what webhooks carry), newest first
  GET: withApi(webhookRoutes.listEvents, async ({ db, url, query, principal }) => {
    const window = keysetWindow(query, "-created_at", eventSortKey.length);
    const { rows, count, nextKey } = await listEvents(db, principal.merchantId, { type: query.event, orderId: query.order_id }, window);
    const nextCursor = nextKey ? encodeCursor({ ordering: "-created_at", key: nextKey }) : null;
    return keysetPage(
      url,
      query,
      count,
      rows.map((row) => serializeEvent(row.event, row.orderId)),
      nextCursor,
    );
  }),
});
