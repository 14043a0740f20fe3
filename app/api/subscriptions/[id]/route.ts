import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { subscriptionRoutes } from "@/lib/subscriptions/routes";
import { getSubscriptionView } from "@/lib/subscriptions/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/subscriptions/{id}/ – one subscription with its history
  GET: withApi(subscriptionRoutes.getSubscription, async ({ db, params, principal }) => ok(await getSubscriptionView(db, principal.merchantId, params.id))),
});
