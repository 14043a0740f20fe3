import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { transactionRoutes } from "@/lib/transactions/routes";
import { getTransactionOrThrow } from "@/lib/transactions/transactions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/transactions/{transaction_hash}/ – one transfer with its order
  GET: withApi(transactionRoutes.getTransaction, async ({ db, principal, params }) =>
    ok(await getTransactionOrThrow(db, principal.merchantId, params.transactionHash)),
  ),
});
