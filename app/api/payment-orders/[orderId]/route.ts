import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { getOrderViewOrThrow } from "@/lib/orders/get-order-or-throw";
import { serializeOrderView } from "@/lib/orders/order-transaction";
import { orderParams } from "@/lib/orders/schemas";

// GET /api/payment-orders/{order_id}/ – one order, by ORD-… or numeric id
export const GET = withApi({ route: "GET /api/payment-orders/[orderId]", params: orderParams }, async ({ db, params, principal }) => {
  return ok(serializeOrderView(await getOrderViewOrThrow(db, principal.merchantId, params.orderId)));
});
