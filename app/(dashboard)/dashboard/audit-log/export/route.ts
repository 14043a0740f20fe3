import { getSessionMerchant } from "@/lib/auth/next-auth";
import { roleAllows } from "@/lib/auth/roles";
import { auditCsvStream } from "@/lib/audit/csv";
import { auditFilterProblemText, parseAuditPageFilters } from "@/lib/audit/page-filters";
import { getDb } from "@/lib/db/client";
import { ApiError, validationError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";

// GET /dashboard/audit-log/export?action=&from=YYYY-MM-DD&to=YYYY-MM-DD – the signed-in merchant's audit log as CSV
const exportAuditLog = plainRoute({ route: "/dashboard/audit-log/export" }, async (request) => {
  const merchant = await getSessionMerchant();
  if (!merchant) throw new ApiError("INVALID_TOKEN", "Sign in to export the audit log.");
  if (!roleAllows(merchant.role, "manage_account"))
    throw new ApiError("INSUFFICIENT_PERMISSIONS", "Only the account's owners and admins can read its audit log.");
  const { filter, problems } = parseAuditPageFilters(Object.fromEntries(new URL(request.url).searchParams));
  if (problems.length > 0) throw validationError({ non_field_errors: problems.map(auditFilterProblemText) });
  return new Response(auditCsvStream(await getDb(), merchant.merchantId, filter), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-log.csv"`,
      "cache-control": "no-store",
    },
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportAuditLog });
