import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { duplicateInvoice, serializeInvoice } from "@/lib/invoices/invoices";
import { invoiceRoutes } from "@/lib/invoices/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/invoices/{id}/duplicate/ – a new draft copying the invoice
  POST: withApi(invoiceRoutes.duplicateInvoice, async ({ db, params, principal }) =>
    created(serializeInvoice(await duplicateInvoice(db, principal.merchantId, params.id)), "Invoice created."),
  ),
});
