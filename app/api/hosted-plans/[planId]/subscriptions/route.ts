import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { subscribeUrl } from "@/lib/subscriptions/manage-link";
import { startPlanSubscription } from "@/lib/subscriptions/plan-link";
import { subscriptionPlanLinkRoutes } from "@/lib/subscriptions/plan-link-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/hosted-plans/{plan_id}/subscriptions/ – public: the customer's own subscription to the plan, then its hosted page
  POST: withApi(subscriptionPlanLinkRoutes.startPlanSubscription, async ({ db, params, body }) => {
    const { subscription, created: made } = await startPlanSubscription(db, params.planId, body);
    const data = { id: subscription.subscriptionId, subscribe_url: subscribeUrl(subscription.subscriptionId) };
    return created(data, made ? "Subscription created." : "Your subscription is waiting for your signature.");
  }),
});
