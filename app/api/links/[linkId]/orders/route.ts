import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createOrderFromLink } from "@/lib/payment-links/payment-links";
import { paymentLinkRoutes } from "@/lib/payment-links/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/links/{link_id}/orders/ – public: a fresh order from the link for the customer's choice
  POST: withApi(paymentLinkRoutes.createLinkOrder, async ({ db, params, body }) =>
    created(await createOrderFromLink(db, params.linkId, body), "Order created."),
  ),
});
