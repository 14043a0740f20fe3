import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPublicLinkOrThrow, serializePublicLink } from "@/lib/payment-links/payment-links";
import { paymentLinkRoutes } from "@/lib/payment-links/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/links/{link_id}/ – public: what the link's page shows (title, price, options)
  GET: withApi(paymentLinkRoutes.getPublicLink, async ({ db, params }) => {
    const { link, shopName } = await getPublicLinkOrThrow(db, params.linkId);
    return ok(serializePublicLink(link, shopName));
  }),
});
