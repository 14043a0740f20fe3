import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { chooseOrderMethod } from "@/lib/orders/choose-method";
import { orderRoutes } from "@/lib/orders/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/pay/{order_id}/method/ – the customer chooses one of the order's (chain, token) methods (issue 27)
  POST: withApi(orderRoutes.chooseMethod, async ({ db, params, body }) => ({
    ...ok(await chooseOrderMethod(db, params.orderId, body)),
    headers: { "cache-control": "no-store" },
  })),
});
