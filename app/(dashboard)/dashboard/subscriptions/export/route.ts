import { getSessionMerchant } from "@/lib/auth/next-auth";
import { getDb } from "@/lib/db/client";
import { ApiError, validationError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { subscriptionsCsv } from "@/lib/subscriptions/csv";
import { subscriptionStatuses, type SubscriptionStatus } from "@/lib/db/schema/subscriptions";

// GET /dashboard/subscriptions/export?status=… – the signed-in merchant's subscriptions as CSV
const exportSubscriptions = plainRoute({ route: "/dashboard/subscriptions/export" }, async (request) => {
  const merchant = await getSessionMerchant();
  if (!merchant) throw new ApiError("INVALID_TOKEN", "Sign in to export subscriptions.");
  const status = new URL(request.url).searchParams.get("status") || undefined;
  if (status && !(subscriptionStatuses as readonly string[]).includes(status))
    throw validationError({ status: [`One of ${subscriptionStatuses.join(", ")}.`] });
  return new Response(await subscriptionsCsv(await getDb(), merchant.merchantId, status as SubscriptionStatus | undefined), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="subscriptions${status ? `-${status}` : ""}.csv"`,
      "cache-control": "no-store",
    },
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportSubscriptions });
