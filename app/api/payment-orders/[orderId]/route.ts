import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getOrderViewOrThrow } from "@/lib/orders/get-order-or-throw";
import { serializeOrderView } from "@/lib/orders/order-transaction";
import { orderRoutes } from "@/lib/orders/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payment-orders/{order_id}/ – one order, by ORD-… or numeric id
  GET: withApi(orderRoutes.getOrder, async ({ db, params, principal }) =>
    ok(serializeOrderView(await getOrderViewOrThrow(db, principal.merchantId, params.orderId))),
  ),
});
