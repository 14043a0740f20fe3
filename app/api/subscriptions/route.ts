import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { subscriptionRoutes } from "@/lib/subscriptions/routes";
import { serializeSubscription } from "@/lib/subscriptions/serialize";
import { createSubscription, listSubscriptions } from "@/lib/subscriptions/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/subscriptions/ – newest first, filtered by status, plan or customer
  GET: withApi(subscriptionRoutes.listSubscriptions, async ({ db, url, query, principal }) => {
    const { rows, count } = await listSubscriptions(db, principal.merchantId, query, pageWindow(query));
    return page(url, query, count, rows);
  }),

  // POST /api/subscriptions/ – fix a customer's terms; the customer then grants the allowance
  POST: withApi(subscriptionRoutes.createSubscription, async ({ db, body, principal }) => {
    const { subscription, planId } = await createSubscription(db, principal.merchantId, body);
    return created(serializeSubscription(subscription, planId), "Subscription created.");
  }),
});
