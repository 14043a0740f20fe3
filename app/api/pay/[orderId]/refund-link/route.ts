import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { requestRefundAddressLink } from "@/lib/receipts/refund-address-link";
import { receiptRoutes } from "@/lib/receipts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/pay/{order_id}/refund-link/ – public: mail a one-time refund-address link to the address given while the payment was due
  POST: withApi(receiptRoutes.requestRefundAddressLink, async ({ db, params }) => ok(await requestRefundAddressLink(db, params.orderId), "Link sent.")),
});
