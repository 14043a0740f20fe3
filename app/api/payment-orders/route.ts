import { created } from "@/lib/http/envelope";
import { keysetPage } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createOrder, serializeNewOrder } from "@/lib/orders/create-order";
import { listOrders } from "@/lib/orders/list-orders";
import { orderRoutes } from "@/lib/orders/routes";
import { serializeOrderListItem } from "@/lib/orders/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/payment-orders/ – create a payment order with its own deposit address
  POST: withApi(orderRoutes.createOrder, async ({ db, body, principal, meter }) =>
    created(await serializeNewOrder(db, await createOrder(db, principal.merchantId, body, { meter }))),
  ),

  // GET /api/payment-orders/ – the merchant's orders: filter by status, blockchain, currency; sort by created_at, amount, status
  GET: withApi(orderRoutes.listOrders, async ({ db, url, query, principal }) => {
    const { rows, count, nextCursor } = await listOrders(db, principal.merchantId, query);
    return keysetPage(url, query, count, rows.map(serializeOrderListItem), nextCursor);
  }),
});
