import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { serializeInvoice } from "@/lib/invoices/invoices";
import { invoiceRoutes } from "@/lib/invoices/routes";
import { voidInvoice } from "@/lib/invoices/send-invoice";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/invoices/{id}/void/ – an unpaid invoice takes no more payments
  POST: withApi(invoiceRoutes.voidInvoice, async ({ db, params, principal }) =>
    ok(serializeInvoice(await voidInvoice(db, principal.merchantId, params.id)), "Invoice voided."),
  ),
});
