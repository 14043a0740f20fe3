import { getSessionMerchant } from "@/lib/auth/next-auth";
import { movementsCsvStream } from "@/lib/dashboard/movements-csv";
import { bankStatementCsvStream, bankStatementQuery } from "@/lib/dashboard/bank-statement-csv";
import { exportOrdersQuery } from "@/lib/dashboard/orders-csv";
import { getDb } from "@/lib/db/client";
import { ApiError, validationError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { fieldErrors } from "@/lib/http/zod-details";

// GET /dashboard/transactions/export?from=YYYY-MM-DD&to=YYYY-MM-DD – every on-chain movement of the signed-in merchant's money in that range as CSV;
// &layout=bank_statement[&currency=USD]: the same as a bank statement (date, description, amount, reference) in one fiat currency

const exportMovements = plainRoute({ route: "/dashboard/transactions/export" }, async (request) => {
  const merchant = await getSessionMerchant();
  if (!merchant) throw new ApiError("INVALID_TOKEN", "Sign in to export transactions.");
  const url = new URL(request.url);
  const from = url.searchParams.get("from");
  const to = url.searchParams.get("to");
  const parsed = exportOrdersQuery.safeParse({ from: from ?? undefined, to: to ?? undefined });
  if (!parsed.success) throw validationError(fieldErrors(parsed.error));
  const layout = url.searchParams.get("layout") || null;
  if (layout !== null && layout !== "movements" && layout !== "bank_statement") throw validationError({ layout: ["Must be movements or bank_statement."] });
  const statement = bankStatementQuery.safeParse({ currency: url.searchParams.get("currency") || undefined });
  if (!statement.success) throw validationError(fieldErrors(statement.error));
  const db = await getDb();
  const bank = layout === "bank_statement";
  const body = bank
    ? bankStatementCsvStream(db, merchant.merchantId, parsed.data, statement.data.currency)
    : movementsCsvStream(db, merchant.merchantId, parsed.data);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${bank ? `bank-statement-${statement.data.currency}` : "movements"}-${from}-to-${to}.csv"`,
      "cache-control": "no-store",
    },
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportMovements });
