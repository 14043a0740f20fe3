import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPayoutOrThrow, showPayout } from "@/lib/payouts/get-payout-or-throw";
import { payoutRoutes } from "@/lib/payouts/routes";
import { updatePayout } from "@/lib/payouts/save-payout";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payouts/{id}/ – a batch, its legs and the transaction to sign
  GET: withApi(payoutRoutes.getPayout, async ({ db, params, principal }) =>
    ok(await showPayout(db, await getPayoutOrThrow(db, principal.merchantId, params.id))),
  ),

  // PATCH /api/payouts/{id}/ – change a draft's legs or note
  PATCH: withApi(payoutRoutes.updatePayout, async ({ db, params, body, principal }) => ok(await updatePayout(db, principal, params.id, body))),
});
