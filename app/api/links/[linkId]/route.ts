import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPublicLinkView } from "@/lib/payment-links/payment-links";
import { paymentLinkRoutes } from "@/lib/payment-links/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/links/{link_id}/ – public: what the link's page shows (title, price, options)
  GET: withApi(paymentLinkRoutes.getPublicLink, async ({ db, params }) => {
    return ok(await getPublicLinkView(db, params.linkId));
  }),
});
