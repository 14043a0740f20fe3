import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { cancelManagedSubscription } from "@/lib/subscriptions/hosted";
import { subscriptionHostedRoutes } from "@/lib/subscriptions/hosted-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/manage-subscription/cancel/ – public: the customer cancels with their manage link's token
  POST: withApi(subscriptionHostedRoutes.cancelManagedSubscription, async ({ db, body }) => {
    const view = await cancelManagedSubscription(db, body.token);
    return ok({ id: view.id, status: view.status }, "Subscription canceled.");
  }),
});
