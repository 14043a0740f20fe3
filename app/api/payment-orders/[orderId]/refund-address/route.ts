import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { enterRefundAddress } from "@/lib/refunds/enter-refund-address";
import { refundRoutes } from "@/lib/refunds/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /api/payment-orders/{order_id}/refund-address/ – a member enters the customer's refund address after contact (fresh proof, audited)
  PUT: withApi(refundRoutes.enterRefundAddress, async ({ db, params, body, principal, clientIp }) =>
    ok(
      await enterRefundAddress(
        db,
        principal.merchantId,
        params.orderId,
        body.refund_address,
        { kind: principal.kind, userId: principal.userId, username: principal.username, clientIp },
        body.reauth,
      ),
      "Refund address saved.",
    ),
  ),
});
