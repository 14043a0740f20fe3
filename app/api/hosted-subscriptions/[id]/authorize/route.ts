import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { requestCustomerLocale } from "@/lib/i18n/locales";
import { authorizeHostedSubscription } from "@/lib/subscriptions/hosted";
import { subscriptionHostedRoutes } from "@/lib/subscriptions/hosted-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/hosted-subscriptions/{id}/authorize/ – public: the customer's permit, relayed; answers the manage link
  POST: withApi(subscriptionHostedRoutes.authorizeHostedSubscription, async ({ db, params, body, request }) =>
    ok(await authorizeHostedSubscription(db, params.id, body, body.locale ?? requestCustomerLocale(request)), "Authorization submitted."),
  ),
});
