import { keysetPage } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { transactionRoutes } from "@/lib/transactions/routes";
import { listTransactions } from "@/lib/transactions/transactions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/transactions/ – the merchant's transfers, newest first
  GET: withApi(transactionRoutes.listTransactions, async ({ db, principal, query, url }) => {
    const { count, results, nextCursor } = await listTransactions(db, principal.merchantId, query);
    return keysetPage(url, query, count, results, nextCursor);
  }),
});
