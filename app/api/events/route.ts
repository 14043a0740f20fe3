import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { listEvents } from "@/lib/webhooks/queries";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeEvent } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/events/ – the merchant's order events (what webhooks carry), newest first
  GET: withApi(webhookRoutes.listEvents, async ({ db, url, query, principal }) => {
    const { rows, count } = await listEvents(db, principal.merchantId, { type: query.event, orderId: query.order_id }, pageWindow(query));
    return page(url, query, count, rows.map((row) => serializeEvent(row.event, row.orderId)));
  }),
});
