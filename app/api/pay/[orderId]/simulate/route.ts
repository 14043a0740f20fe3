import { created } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { orderParams } from "@/lib/orders/schemas";
import { simulateBody, simulatePayment } from "@/lib/sandbox/simulate-payment";

// POST /api/pay/{order_id}/simulate/ – sandbox only: the payment page's "Simulate payment" (full, partial) and "mine" controls
export const POST = withApi(
  {
    route: "POST /api/pay/[orderId]/simulate",
    params: orderParams,
    body: simulateBody,
    sandboxOnly: true,
    // Public (the customer has no credential), so limited per client address: each call is a devnet transaction.
    clientLimit: { name: "pay-simulate", perHour: 120 },
  },
  async ({ db, params, body }) => created(await simulatePayment(db, params.orderId, body.kind), "Simulated on the devnet."),
);
