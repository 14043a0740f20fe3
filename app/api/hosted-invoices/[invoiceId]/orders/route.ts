import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { requestCustomerLocale } from "@/lib/i18n/locales";
import { withApi } from "@/lib/http/with-api";
import { createInvoiceOrder } from "@/lib/invoices/pay-invoice";
import { invoiceRoutes } from "@/lib/invoices/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/hosted-invoices/{invoice_id}/orders/ – public: an order paying all or part of the invoice
  POST: withApi(invoiceRoutes.createInvoiceOrder, async ({ db, params, body, request }) =>
    created(await createInvoiceOrder(db, params.invoiceId, { ...body, locale: body.locale ?? requestCustomerLocale(request) ?? undefined }), "Order created."),
  ),
});
