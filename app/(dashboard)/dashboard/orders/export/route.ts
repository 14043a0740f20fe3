import { getSessionMerchant } from "@/lib/auth/next-auth";
import { exportOrdersQuery, ordersCsvStream } from "@/lib/dashboard/orders-csv";
import { getDb } from "@/lib/db/client";
import { ApiError, validationError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { fieldErrors } from "@/lib/http/zod-details";

// GET /dashboard/orders/export?from=YYYY-MM-DD&to=YYYY-MM-DD – the signed-in merchant's orders in that range as CSV
const exportOrders = plainRoute({ route: "/dashboard/orders/export" }, async (request) => {
  const merchant = await getSessionMerchant();
  if (!merchant) throw new ApiError("INVALID_TOKEN", "Sign in to export orders.");
  const url = new URL(request.url);
  const from = url.searchParams.get("from");
  const to = url.searchParams.get("to");
  const parsed = exportOrdersQuery.safeParse({ from: from ?? undefined, to: to ?? undefined });
  if (!parsed.success) throw validationError(fieldErrors(parsed.error));
  return new Response(ordersCsvStream(await getDb(), merchant.merchantId, parsed.data), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="orders-${from}-to-${to}.csv"`,
      "cache-control": "no-store",
    },
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportOrders });
