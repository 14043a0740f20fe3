import { getSessionMerchant } from "@/lib/auth/next-auth";
import { movementsCsvStream } from "@/lib/dashboard/movements-csv";
import { exportOrdersQuery } from "@/lib/dashboard/orders-csv";
import { getDb } from "@/lib/db/client";
import { ApiError, validationError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { fieldErrors } from "@/lib/http/zod-details";

// GET /dashboard/transactions/export?from=YYYY-MM-DD&to=YYYY-MM-DD – every on-chain movement of the signed-in merchant's money in that range as CSV
const exportMovements = plainRoute({ route: "/dashboard/transactions/export" }, async (request) => {
  const merchant = await getSessionMerchant();
  if (!merchant) throw new ApiError("INVALID_TOKEN", "Sign in to export transactions.");
  const url = new URL(request.url);
  const from = url.searchParams.get("from");
  const to = url.searchParams.get("to");
  const parsed = exportOrdersQuery.safeParse({ from: from ?? undefined, to: to ?? undefined });
  if (!parsed.success) throw validationError(fieldErrors(parsed.error));
  return new Response(movementsCsvStream(await getDb(), merchant.merchantId, parsed.data), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="movements-${from}-to-${to}.csv"`,
      "cache-control": "no-store",
    },
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportMovements });
