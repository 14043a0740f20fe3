import { created } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { createOrderFromLink } from "@/lib/payment-links/payment-links";
import { createLinkOrderBody, publicLinkParams } from "@/lib/payment-links/schemas";

// POST /api/links/{link_id}/orders/ – public: a fresh order from the link for the customer's choice
export const POST = withApi(
  {
    route: "POST /api/links/[linkId]/orders",
    params: publicLinkParams,
    body: createLinkOrderBody,
    // Public (the customer has no credential), so limited per client address: each call creates an order.
    clientLimit: { name: "link-order", perHour: 60 },
  },
  async ({ db, params, body }) => created(await createOrderFromLink(db, params.linkId, body), "Order created."),
);
