import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getHostedSubscriptionView } from "@/lib/subscriptions/hosted";
import { subscriptionHostedRoutes } from "@/lib/subscriptions/hosted-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/hosted-subscriptions/{id}/ – public: what the hosted subscribe page shows
  GET: withApi(subscriptionHostedRoutes.getHostedSubscription, async ({ db, params }) => ok(await getHostedSubscriptionView(db, params.id))),
});
