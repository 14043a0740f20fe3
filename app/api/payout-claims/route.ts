import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createClaim, listClaims } from "@/lib/payouts/claims";
import { payoutRoutes } from "@/lib/payouts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payout-claims/ – the merchant's claim links, newest first
  GET: withApi(payoutRoutes.listClaims, async ({ db, url, query, principal }) => {
    const { count, results } = await listClaims(db, principal.merchantId, pageWindow(query));
    return page(url, query, count, results);
  }),

  // POST /api/payout-claims/ – a claim link for an amount, to give to its recipient
  POST: withApi(payoutRoutes.createClaim, async ({ db, body, principal }) =>
    created(await createClaim(db, principal.merchantId, body), "Claim link created: give its url to the recipient."),
  ),
});
