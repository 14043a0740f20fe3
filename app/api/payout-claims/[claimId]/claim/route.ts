import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { claimPayout, showPublicClaim } from "@/lib/payouts/claims";
import { payoutRoutes } from "@/lib/payouts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payout-claims/{claim_id}/claim/ – what the link pays and whether it is open (public)
  GET: withApi(payoutRoutes.showClaim, async ({ db, params }) => ok(await showPublicClaim(db, params.claimId))),

  // POST /api/payout-claims/{claim_id}/claim/ – the recipient gives their address, once (public)
  POST: withApi(payoutRoutes.claim, async ({ db, params, body }) =>
    ok(await claimPayout(db, params.claimId, body.address), "Claimed: the merchant's next payout batch pays it."),
  ),
});
