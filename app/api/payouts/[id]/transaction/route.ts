import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { recordPayoutTransaction } from "@/lib/payouts/record-payout-transaction";
import { payoutRoutes } from "@/lib/payouts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/payouts/{id}/transaction/ – the hash of the batch transaction the merchant's wallet sent
  POST: withApi(payoutRoutes.recordPayoutTransaction, async ({ db, params, body, principal }) =>
    ok(await recordPayoutTransaction(db, principal, params.id, body.tx_hash), "Transaction recorded; the gateway settles the legs from its receipt."),
  ),
});
