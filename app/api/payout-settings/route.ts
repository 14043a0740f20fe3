import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPayoutSettings, setPayoutSettings } from "@/lib/payouts/payout-settings";
import { payoutRoutes } from "@/lib/payouts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payout-settings/ – the approval threshold
  GET: withApi(payoutRoutes.getPayoutSettings, async ({ db, principal }) => ok(await getPayoutSettings(db, principal.merchantId))),

  // PUT /api/payout-settings/ – set the approval threshold (owner, admin)
  PUT: withApi(payoutRoutes.setPayoutSettings, async ({ db, body, principal }) =>
    ok(await setPayoutSettings(db, principal.merchantId, body.approval_threshold_usd)),
  ),
});
