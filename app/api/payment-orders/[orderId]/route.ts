import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { findOrderView } from "@/lib/orders/order-transaction";
import { getOrderOrThrow } from "@/lib/orders/get-order-or-throw";
import { orderParams } from "@/lib/orders/schemas";

// GET /api/payment-orders/{order_id}/ – one order, by ORD-… or numeric id
export const GET = withApi({ route: "GET /api/payment-orders/[orderId]", params: orderParams }, async ({ db, params, principal }) => {
  const order = await getOrderOrThrow(db, principal.merchantId, params.orderId);
  return ok(await findOrderView(db, order));
});
