import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { getPublicLinkOrThrow, serializePublicLink } from "@/lib/payment-links/payment-links";
import { publicLinkParams } from "@/lib/payment-links/schemas";

// GET /api/links/{link_id}/ – public: what the link's page shows (title, price, options)
export const GET = withApi(
  { route: "GET /api/links/[linkId]", params: publicLinkParams, clientLimit: { name: "link-view", perHour: 600 } },
  async ({ db, params }) => {
    const { link, shopName } = await getPublicLinkOrThrow(db, params.linkId);
    return ok(serializePublicLink(link, shopName));
  },
);
