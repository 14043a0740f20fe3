import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { subscriptionRoutes } from "@/lib/subscriptions/routes";
import { changeSubscription } from "@/lib/subscriptions/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/subscriptions/{id}/cancel/
  POST: withApi(subscriptionRoutes.cancelSubscription, async ({ db, params, body, principal }) =>
    ok(await changeSubscription(db, principal.merchantId, params.id, "cancel", body?.reason ?? null), "Subscription canceled."),
  ),
});
