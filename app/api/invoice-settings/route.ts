import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getInvoiceSettings, saveInvoiceSettings } from "@/lib/invoices/invoices";
import { invoiceRoutes } from "@/lib/invoices/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/invoice-settings/ – number format, partial payments, reminder schedule
  GET: withApi(invoiceRoutes.getInvoiceSettings, async ({ db, principal }) => ok(await getInvoiceSettings(db, principal.merchantId))),

  // PUT /api/invoice-settings/
  PUT: withApi(invoiceRoutes.updateInvoiceSettings, async ({ db, body, principal }) =>
    ok(await saveInvoiceSettings(db, principal.merchantId, body), "Invoice settings saved."),
  ),
});
