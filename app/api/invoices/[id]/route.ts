import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getInvoiceOrThrow, serializeInvoice, updateInvoice } from "@/lib/invoices/invoices";
import { invoiceRoutes } from "@/lib/invoices/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/invoices/{id}/ – one invoice
  GET: withApi(invoiceRoutes.getInvoice, async ({ db, params, principal }) =>
    ok(serializeInvoice(await getInvoiceOrThrow(db, principal.merchantId, params.id))),
  ),

  // PUT /api/invoices/{id}/ – change a draft
  PUT: withApi(invoiceRoutes.updateInvoice, async ({ db, params, body, principal }) =>
    ok(serializeInvoice(await updateInvoice(db, principal.merchantId, params.id, body)), "Invoice updated."),
  ),
});
