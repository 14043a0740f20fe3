import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { approvePayout } from "@/lib/payouts/approve-payout";
import { payoutRoutes } from "@/lib/payouts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/payouts/{id}/approve/ – a second member approves a draft
  POST: withApi(payoutRoutes.approvePayout, async ({ db, params, principal }) => ok(await approvePayout(db, principal, params.id), "Payout batch approved.")),
});
