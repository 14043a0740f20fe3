import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { renderInvoicePdf } from "./invoice-pdf";
import { findSentInvoice } from "./queries";

const publicIdPattern = /^INV-[0-9A-Za-z]{22}$/;

/**
 * The PDF the hosted page offers: the invoice (any sent invoice), or its receipt (once paid in
 * full). Null for an unknown id, a draft, or a receipt of an unpaid invoice.
 */
export async function invoiceDocument(db: DbOrTx, invoiceId: string, kind: "invoice" | "receipt"): Promise<{ filename: string; pdf: Buffer } | null> {
  if (!publicIdPattern.test(invoiceId)) return null;
  const found = await findSentInvoice(db, invoiceId);
  if (!found) return null;
  if (kind === "receipt" && found.invoice.status !== "paid") return null;
  const safeNumber = found.invoice.number.replace(/[^0-9A-Za-z._-]+/g, "-");
  return { filename: `${kind}-${safeNumber}.pdf`, pdf: await renderInvoicePdf(found.invoice, found.shopName, kind) };
}
