import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { getOrderViewOrThrow } from "@/lib/orders/get-order-or-throw";
import { summarizeTransfer } from "@/lib/orders/order-transaction";
import { orderParams } from "@/lib/orders/schemas";
import { serializeOrder, type OrderSweepSummary } from "@/lib/orders/serialize";

// GET /api/payment-orders/{order_id}/ – one order, by ORD-… or numeric id
export const GET = withApi({ route: "GET /api/payment-orders/[orderId]", params: orderParams }, async ({ db, params, principal }) => {
  const { order, transfer, head, sweep } = await getOrderViewOrThrow(db, principal.merchantId, params.orderId);
  const sweepSummary = sweep ? { status: sweep.status as OrderSweepSummary["status"], transaction_hash: sweep.txHash } : null;
  return ok(serializeOrder(order, transfer ? summarizeTransfer(transfer, head) : null, sweepSummary));
});
