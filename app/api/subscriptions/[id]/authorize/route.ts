import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { authorizeSubscription } from "@/lib/subscriptions/authorize";
import { subscriptionAuthorizeRoutes } from "@/lib/subscriptions/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/subscriptions/{id}/authorize/ – deploy the pull contract with the customer's permit
  POST: withApi(subscriptionAuthorizeRoutes.authorizeSubscription, async ({ db, params, body, principal }) =>
    ok(await authorizeSubscription(db, principal.merchantId, params.id, body), "Authorization submitted."),
  ),
});
