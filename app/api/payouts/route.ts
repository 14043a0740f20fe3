import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { listPayouts } from "@/lib/payouts/list-payouts";
import { payoutRoutes } from "@/lib/payouts/routes";
import { createPayout } from "@/lib/payouts/save-payout";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payouts/ – the merchant's payout batches, newest first
  GET: withApi(payoutRoutes.listPayouts, async ({ db, url, query, principal }) => {
    const { count, results } = await listPayouts(db, principal.merchantId, pageWindow(query));
    return page(url, query, count, results);
  }),

  // POST /api/payouts/ – a draft batch from legs or a CSV, checked row by row
  POST: withApi(payoutRoutes.createPayout, async ({ db, body, principal }) =>
    created(await createPayout(db, principal, body), "Payout batch saved as a draft."),
  ),
});
