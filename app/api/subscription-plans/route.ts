import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createPlan, serializePlan } from "@/lib/subscriptions/plans";
import { listMerchantPlans } from "@/lib/subscriptions/queries";
import { subscriptionRoutes } from "@/lib/subscriptions/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/subscription-plans/ – the merchant's plans, newest first
  GET: withApi(subscriptionRoutes.listPlans, async ({ db, url, query, principal }) => {
    const { rows, count } = await listMerchantPlans(db, principal.merchantId, pageWindow(query));
    return page(url, query, count, rows.map(serializePlan));
  }),

  // POST /api/subscription-plans/ – what subscribers agree to
  POST: withApi(subscriptionRoutes.createPlan, async ({ db, body, principal }) =>
    created(serializePlan(await createPlan(db, principal.merchantId, body)), "Subscription plan created."),
  ),
});
