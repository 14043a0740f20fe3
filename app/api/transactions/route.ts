import { page } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { listTransactionsQuery } from "@/lib/transactions/schemas";
import { listTransactions } from "@/lib/transactions/transactions";

// GET /api/transactions/ – the merchant's transfers, newest first
export const GET = withApi({ route: "GET /api/transactions", query: listTransactionsQuery }, async ({ db, principal, query, url }) => {
  const { count, results } = await listTransactions(db, principal.merchantId, query);
  return page(url, query, count, results);
});
