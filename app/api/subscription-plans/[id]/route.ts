import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPlanOrThrow, serializePlan } from "@/lib/subscriptions/plans";
import { subscriptionRoutes } from "@/lib/subscriptions/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/subscription-plans/{id}/ – one plan
  GET: withApi(subscriptionRoutes.getPlan, async ({ db, params, principal }) => ok(serializePlan(await getPlanOrThrow(db, principal.merchantId, params.id)))),
});
