import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { sandboxRoutes } from "@/lib/sandbox/routes";
import { payOrder } from "@/lib/sandbox/sandbox-tools";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/sandbox/payment-orders/{order_id}/pay/ – a real devnet transfer to the order's deposit address
  POST: withApi(sandboxRoutes.payOrder, async ({ db, principal, params, body }) => {
    return created(await payOrder(db, principal.merchantId, params.orderId, body), "Payment sent on the devnet.");
  }),
});
