import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { transactionParams } from "@/lib/transactions/schemas";
import { getTransactionOrThrow } from "@/lib/transactions/transactions";

// GET /api/transactions/{transaction_hash}/ – one transfer with its order
export const GET = withApi({ route: "GET /api/transactions/[transactionHash]", params: transactionParams }, async ({ db, principal, params }) =>
  ok(await getTransactionOrThrow(db, principal.merchantId, params.transactionHash)),
);
