import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { getPublicInvoiceView } from "@/lib/invoices/pay-invoice";
import { invoiceRoutes } from "@/lib/invoices/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/hosted-invoices/{invoice_id}/ – public: what the hosted invoice page shows
  GET: withApi(invoiceRoutes.getPublicInvoice, async ({ db, params }) => ok(await getPublicInvoiceView(db, params.invoiceId))),
});
