import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { setRefundAddressByLink } from "@/lib/receipts/refund-address-link";
import { receiptRoutes } from "@/lib/receipts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/pay/{order_id}/refund-link/address/ – public: spend a mailed link and leave the refund address
  POST: withApi(receiptRoutes.setRefundAddressByLink, async ({ db, params, body }) =>
    created(await setRefundAddressByLink(db, params.orderId, body.token, body.refund_address), "Refund address saved; the merchant will see it."),
  ),
});
