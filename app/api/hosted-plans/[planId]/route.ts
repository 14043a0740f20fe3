import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPublicPlanView } from "@/lib/subscriptions/plan-link";
import { subscriptionPlanLinkRoutes } from "@/lib/subscriptions/plan-link-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/hosted-plans/{plan_id}/ – public: what the plan's public subscribe page shows
  GET: withApi(subscriptionPlanLinkRoutes.getPublicPlan, async ({ db, params }) => ok(await getPublicPlanView(db, params.planId))),
});
