import { created } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { payOrder } from "@/lib/sandbox/sandbox-tools";
import { payOrderBody, sandboxOrderParams } from "@/lib/sandbox/schemas";
import { spendFaucetSend } from "@/lib/sandbox/usage-limits";

// POST /api/sandbox/payment-orders/{order_id}/pay/ – a real devnet transfer to the order's deposit address
export const POST = withApi(
  { route: "POST /api/sandbox/payment-orders/[orderId]/pay", params: sandboxOrderParams, body: payOrderBody, sandboxOnly: true },
  async ({ db, principal, params, body }) => {
    await spendFaucetSend(db, principal.merchantId);
    return created(await payOrder(db, principal.merchantId, params.orderId, body), "Payment sent on the devnet.");
  },
);
