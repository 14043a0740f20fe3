import { page, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { listEvents } from "@/lib/webhooks/queries";
import { listEventsQuery } from "@/lib/webhooks/schemas";
import { serializeEvent } from "@/lib/webhooks/serialize";

// GET /api/events/ – the merchant's order events (what webhooks carry), newest first
export const GET = withApi({ route: "GET /api/events", query: listEventsQuery }, async ({ db, url, query, principal }) => {
  const { rows, count } = await listEvents(db, principal.merchantId, { type: query.event, orderId: query.order_id }, pageWindow(query));
  return page(url, query, count, rows.map((row) => serializeEvent(row.event, row.orderId)));
});
