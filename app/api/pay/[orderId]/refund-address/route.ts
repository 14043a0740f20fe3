import type { Hex } from "viem";
import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { refundRoutes } from "@/lib/refunds/routes";
import { setRefundAddress } from "@/lib/refunds/set-refund-address";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/pay/{order_id}/refund-address/ – the customer leaves an address for a refund (overpaid, underpaid or late orders), signed by the paying wallet
  POST: withApi(refundRoutes.setRefundAddress, async ({ db, params, body }) =>
    created(await setRefundAddress(db, params.orderId, body.refund_address, body.signature as Hex), "Refund address saved; the merchant will see it."),
  ),
});
