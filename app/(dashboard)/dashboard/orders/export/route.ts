import { getSessionMerchant } from "@/lib/auth/next-auth";
import { exportOrdersQuery, ordersCsvStream } from "@/lib/dashboard/orders-csv";
import { getDb } from "@/lib/db/client";
import { fieldErrors } from "@/lib/http/zod-details";

// GET /dashboard/orders/export?from=YYYY-MM-DD&to=YYYY-MM-DD – the signed-in merchant's orders in that range as CSV
export async function GET(request: Request): Promise<Response> {
  const merchant = await getSessionMerchant();
  if (!merchant) return Response.json({ success: false, error: { code: "INVALID_TOKEN", message: "Sign in to export orders." } }, { status: 401 });
  const url = new URL(request.url);
  const parsed = exportOrdersQuery.safeParse({ from: url.searchParams.get("from") ?? undefined, to: url.searchParams.get("to") ?? undefined });
  if (!parsed.success) {
    return Response.json(
      { success: false, error: { code: "VALIDATION_ERROR", message: "Request data is invalid.", details: fieldErrors(parsed.error) } },
      { status: 400 },
    );
  }
  const from = url.searchParams.get("from");
  const to = url.searchParams.get("to");
  return new Response(ordersCsvStream(await getDb(), merchant.merchantId, parsed.data), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="orders-${from}-to-${to}.csv"`,
      "cache-control": "no-store",
    },
  });
}
