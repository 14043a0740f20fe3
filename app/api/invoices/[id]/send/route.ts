import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { serializeInvoice } from "@/lib/invoices/invoices";
import { invoiceRoutes } from "@/lib/invoices/routes";
import { sendInvoice } from "@/lib/invoices/send-invoice";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/invoices/{id}/send/ – mail the invoice to its client (a draft becomes sent)
  POST: withApi(invoiceRoutes.sendInvoice, async ({ db, params, principal }) =>
    ok(serializeInvoice(await sendInvoice(db, principal.merchantId, params.id)), "Invoice sent."),
  ),
});
