import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createLink, serializeLink } from "@/lib/payment-links/payment-links";
import { listMerchantLinks } from "@/lib/payment-links/queries";
import { paymentLinkRoutes } from "@/lib/payment-links/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payment-links/ – the merchant's payment links, newest first
  GET: withApi(paymentLinkRoutes.listLinks, async ({ db, url, query, principal }) => {
    const { rows, count } = await listMerchantLinks(db, principal.merchantId, pageWindow(query));
    return page(url, query, count, rows.map(serializeLink));
  }),

  // POST /api/payment-links/ – a reusable link: each customer opening it gets a fresh order
  POST: withApi(paymentLinkRoutes.createLink, async ({ db, body, principal }) =>
    created(serializeLink(await createLink(db, principal.merchantId, body)), "Payment link created."),
  ),
});
