import { getDb } from "@/lib/db/client";
import { invoiceDocument } from "@/lib/invoices/invoice-document";

export const dynamic = "force-dynamic";

// GET /invoice/{invoice_id}/pdf[?kind=receipt] – the printable invoice, or its receipt once paid
export async function GET(request: Request, { params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const kind = new URL(request.url).searchParams.get("kind") === "receipt" ? "receipt" : "invoice";
  const document = await invoiceDocument(await getDb(), invoiceId, kind);
  if (!document) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(document.pdf), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${document.filename}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
