import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { createInvoice, serializeInvoice } from "@/lib/invoices/invoices";
import { listMerchantInvoices } from "@/lib/invoices/queries";
import { invoiceRoutes } from "@/lib/invoices/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/invoices/ – the store's invoices, newest number first
  GET: withApi(invoiceRoutes.listInvoices, async ({ db, url, query, principal }) => {
    const { rows, count } = await listMerchantInvoices(db, principal.merchantId, query.status, pageWindow(query));
    return page(url, query, count, rows.map(serializeInvoice));
  }),

  // POST /api/invoices/ – a draft with the store's next number
  POST: withApi(invoiceRoutes.createInvoice, async ({ db, body, principal }) =>
    created(serializeInvoice(await createInvoice(db, principal.merchantId, body)), "Invoice created."),
  ),
});
