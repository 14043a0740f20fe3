import { ok } from "@/lib/http/envelope";
import { notFound } from "@/lib/http/errors";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPublicOrder } from "@/lib/orders/public-order";
import { orderRoutes } from "@/lib/orders/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/pay/{order_id}/ – the payment page's live status: customer-safe fields only, by ORD-… id only (no credential)
  GET: withApi(orderRoutes.getPublicOrder, async ({ db, params }) => {
    const order = await getPublicOrder(db, params.orderId);
    if (!order) throw notFound("Payment order");
    return { ...ok(order), headers: { "cache-control": "no-store" } };
  }),
});
