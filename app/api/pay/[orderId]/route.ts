import { ok } from "@/lib/http/envelope";
import { notFound } from "@/lib/http/errors";
import { withApi } from "@/lib/http/with-api";
import { getPublicOrder } from "@/lib/orders/public-order";
import { orderParams } from "@/lib/orders/schemas";

// GET /api/pay/{order_id}/ – the payment page's live status: customer-safe fields only, by ORD-… id only (no credential)
export const GET = withApi({ route: "GET /api/pay/[orderId]", params: orderParams }, async ({ db, params }) => {
  const order = await getPublicOrder(db, params.orderId);
  if (!order) throw notFound("Payment order");
  return { ...ok(order), headers: { "cache-control": "no-store" } };
});
