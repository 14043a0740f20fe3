import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { cancelPayout } from "@/lib/payouts/cancel-payout";
import { payoutRoutes } from "@/lib/payouts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/payouts/{id}/cancel/ – cancel a batch not yet sent
  POST: withApi(payoutRoutes.cancelPayout, async ({ db, params, principal }) => ok(await cancelPayout(db, principal, params.id), "Payout batch cancelled.")),
});
