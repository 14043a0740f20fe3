import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { requestCustomerLocale } from "@/lib/i18n/locales";
import { confirmHostedApproval } from "@/lib/subscriptions/hosted";
import { subscriptionHostedRoutes } from "@/lib/subscriptions/hosted-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/hosted-subscriptions/{id}/approval/ – public: the customer's mined approve; answers the manage link
  POST: withApi(subscriptionHostedRoutes.confirmHostedApproval, async ({ db, params, body, request }) =>
    ok(await confirmHostedApproval(db, params.id, body.transaction_hash, body.locale ?? requestCustomerLocale(request))),
  ),
});
