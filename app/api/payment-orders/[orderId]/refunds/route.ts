import { created, ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { orderParams } from "@/lib/orders/schemas";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { createRefundBody } from "@/lib/refunds/schemas";

// GET /api/payment-orders/{order_id}/refunds/ – the order's refunds, oldest first
export const GET = withApi({ route: "GET /api/payment-orders/[orderId]/refunds", params: orderParams }, async ({ db, params, principal }) =>
  ok(await listRefunds(db, principal.merchantId, params.orderId)),
);

// POST /api/payment-orders/{order_id}/refunds/ – request a refund and get the transaction to sign with your wallet
export const POST = withApi(
  { route: "POST /api/payment-orders/[orderId]/refunds", params: orderParams, body: createRefundBody },
  async ({ db, params, body, principal }) => created(await createRefund(db, principal.merchantId, params.orderId, body), "Refund requested: sign and send the transaction with your wallet."),
);
