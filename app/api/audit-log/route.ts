import { listAuditEntries } from "@/lib/audit/queries";
import { serializeAuditEntry } from "@/lib/audit/record";
import { auditRoutes } from "@/lib/audit/routes";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/audit-log/ – the account's audit log, newest first, filtered by action and date range
  GET: withApi(auditRoutes.listAuditLog, async ({ db, principal, query, url }) => {
    const { rows, count } = await listAuditEntries(db, principal.merchantId, query, pageWindow(query));
    return page(url, query, count, rows.map(serializeAuditEntry));
  }),
});
