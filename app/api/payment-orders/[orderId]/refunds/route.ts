import { created, ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { refundRoutes } from "@/lib/refunds/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payment-orders/{order_id}/refunds/ – the order's refunds, oldest first
  GET: withApi(refundRoutes.listRefunds, async ({ db, params, principal }) => ok(await listRefunds(db, principal.merchantId, params.orderId))),

  // POST /api/payment-orders/{order_id}/refunds/ – request a refund and get the transaction to sign with your wallet
  POST: withApi(refundRoutes.createRefund, async ({ db, params, body, principal }) =>
    created(await createRefund(db, principal.merchantId, params.orderId, body), "Refund requested: sign and send the transaction with your wallet."),
  ),
});
