import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { subscriptionPlanLinkRoutes } from "@/lib/subscriptions/plan-link-routes";
import { getPlanOrThrow, serializePlan, updatePlan } from "@/lib/subscriptions/plans";
import { subscriptionRoutes } from "@/lib/subscriptions/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/subscription-plans/{id}/ – one plan
  GET: withApi(subscriptionRoutes.getPlan, async ({ db, params, principal }) => ok(serializePlan(await getPlanOrThrow(db, principal.merchantId, params.id)))),
  // PATCH /api/subscription-plans/{id}/ – switch the public link on or off, archive or reactivate
  PATCH: withApi(subscriptionPlanLinkRoutes.updatePlan, async ({ db, params, body, principal }) =>
    ok(serializePlan(await updatePlan(db, principal.merchantId, params.id, body)), "Subscription plan updated."),
  ),
});
