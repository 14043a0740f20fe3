import { getSessionMerchant } from "@/lib/auth/next-auth";
import { findMerchantById } from "@/lib/auth/queries";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";
import { getInvoiceOrThrow } from "@/lib/invoices/invoices";
import { renderInvoicePdf } from "@/lib/invoices/invoice-pdf";

// GET /dashboard/invoices/{id}/pdf – the signed-in store's invoice as its client will get it (drafts too: the preview)
const previewInvoice = plainRoute({ route: "/dashboard/invoices/[id]/pdf" }, async (request) => {
  const merchant = await getSessionMerchant();
  if (!merchant) throw new ApiError("INVALID_TOKEN", "Sign in to preview invoices.");
  const id = new URL(request.url).pathname.split("/").at(-2) ?? "";
  const db = await getDb();
  const invoice = await getInvoiceOrThrow(db, merchant.merchantId, id);
  const store = await findMerchantById(db, merchant.merchantId);
  const pdf = await renderInvoicePdf(invoice, store?.shopName ?? "", invoice.status === "paid" ? "receipt" : "invoice");
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="invoice-${invoice.number.replace(/[^0-9A-Za-z._-]+/g, "-")}.pdf"`,
      "cache-control": "private, no-store",
    },
  });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: previewInvoice });
