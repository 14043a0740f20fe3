import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { sandboxRoutes } from "@/lib/sandbox/routes";
import { simulatePayment } from "@/lib/sandbox/simulate-payment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/pay/{order_id}/simulate/ – sandbox only: the payment page's "Simulate payment" (full, partial) and "mine" controls
  POST: withApi(sandboxRoutes.simulate, async ({ db, params, body }) =>
    created(await simulatePayment(db, params.orderId, body.kind), "Simulated on the devnet."),
  ),
});
