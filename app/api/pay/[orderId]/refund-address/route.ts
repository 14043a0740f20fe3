import { created } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { orderParams } from "@/lib/orders/schemas";
import { refundAddressBody } from "@/lib/refunds/schemas";
import { setRefundAddress } from "@/lib/refunds/set-refund-address";

// POST /api/pay/{order_id}/refund-address/ – the customer leaves an address for a refund (overpaid, underpaid or late orders; once)
export const POST = withApi(
  {
    route: "POST /api/pay/[orderId]/refund-address",
    params: orderParams,
    body: refundAddressBody,
    // Public (the customer has no credential), so limited per client address like simulate.
    clientLimit: { name: "pay-refund-address", perHour: 30 },
  },
  async ({ db, params, body }) => created(await setRefundAddress(db, params.orderId, body.refund_address), "Refund address saved; the merchant will see it."),
);
