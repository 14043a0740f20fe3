import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { createLink, serializeLink } from "@/lib/payment-links/payment-links";
import { listMerchantLinks } from "@/lib/payment-links/queries";
import { createLinkBody, listLinksQuery } from "@/lib/payment-links/schemas";

// GET /api/payment-links/ – the merchant's payment links, newest first
export const GET = withApi({ route: "GET /api/payment-links", query: listLinksQuery }, async ({ db, url, query, principal }) => {
  const { rows, count } = await listMerchantLinks(db, principal.merchantId, pageWindow(query));
  return page(url, query, count, rows.map(serializeLink));
});

// POST /api/payment-links/ – a reusable link: each customer opening it gets a fresh order
export const POST = withApi({ route: "POST /api/payment-links", body: createLinkBody }, async ({ db, body, principal }) =>
  created(serializeLink(await createLink(db, principal.merchantId, body)), "Payment link created."),
);
