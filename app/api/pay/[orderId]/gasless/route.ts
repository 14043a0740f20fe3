import { relayGaslessPayment } from "@/lib/gasless/relay";
import { gaslessRoutes } from "@/lib/gasless/routes";
import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/pay/{order_id}/gasless/ – the payment page's "Pay without gas": a signed EIP-3009 authorization the gateway relays
  POST: withApi(gaslessRoutes.relay, async ({ db, params, body }) =>
    created(await relayGaslessPayment(db, params.orderId, body), "Sent without gas; the payment is on its way."),
  ),
});
