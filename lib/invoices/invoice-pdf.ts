import "server-only";
import PDFDocument from "pdfkit";
import type { Invoice } from "@/lib/db/schema";
import { serializeInvoice } from "./invoices";

/** A4 in points, and the page margin. */
const margin = 50;
const pageWidth = 595.28;
const contentWidth = pageWidth - 2 * margin;

const day = (iso: string) => iso.slice(0, 10);

/**
 * The printable invoice, or its receipt once paid in full, as a PDF (pdfkit, the standard Helvetica
 * fonts: no font files to ship). English, like the invoice's own numbers and the store's text.
 */
export async function renderInvoicePdf(invoice: Invoice, shopName: string, kind: "invoice" | "receipt"): Promise<Buffer> {
  const view = serializeInvoice(invoice);
  const doc = new PDFDocument({
    size: "A4",
    margin,
    info: { Title: `${kind === "receipt" ? "Receipt" : "Invoice"} ${view.number}`, Author: shopName, Producer: shopName, Creator: shopName },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  doc.font("Helvetica-Bold").fontSize(20).text(shopName, { width: contentWidth });
  doc
    .moveDown(0.3)
    .font("Helvetica")
    .fontSize(14)
    .text(`${kind === "receipt" ? "Receipt for invoice" : "Invoice"} ${view.number}`);
  doc.moveDown(0.5).fontSize(10).fillColor("#444444");
  doc.text(
    kind === "receipt" && view.paid_at ? `Paid in full on ${day(view.paid_at)}` : `Issued ${day(view.sent_at ?? view.created_at)} · Due ${day(view.due_at)}`,
  );
  doc.moveDown(1).fillColor("#000000").font("Helvetica-Bold").text("Billed to");
  doc.font("Helvetica").text(view.client.name);
  if (view.client.address) doc.text(view.client.address);
  doc.text(view.client.email);
  if (view.client.tax_id) doc.text(`Tax ID: ${view.client.tax_id}`);

  const columns = [
    { title: "Description", x: margin, width: 250, align: "left" as const },
    { title: "Qty", x: margin + 255, width: 50, align: "right" as const },
    { title: "Unit price", x: margin + 310, width: 90, align: "right" as const },
    { title: `Amount (${view.currency})`, x: margin + 405, width: contentWidth - 405, align: "right" as const },
  ];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica");
    const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width }));
    cells.forEach((cell, i) => doc.text(cell, columns[i]!.x, y, { width: columns[i]!.width, align: columns[i]!.align }));
    doc.x = margin;
    doc.y = y + Math.max(...heights) + 4;
  };
  doc.moveDown(1.5);
  row(
    columns.map((c) => c.title),
    true,
  );
  doc
    .moveTo(margin, doc.y)
    .lineTo(pageWidth - margin, doc.y)
    .stroke("#999999");
  doc.y += 4;
  for (const item of view.items) row([item.description, item.quantity, item.unit_price, item.amount]);
  doc
    .moveTo(margin, doc.y)
    .lineTo(pageWidth - margin, doc.y)
    .stroke("#999999");
  doc.y += 4;
  const total = (label: string, value: string, bold = false) => row([label, "", "", value], bold);
  total("Subtotal", view.subtotal);
  for (const tax of view.taxes) total(`${tax.name} (${tax.rate} %)`, tax.amount);
  total(`Total (${view.currency})`, view.total, true);
  total("Paid", view.amount_paid);
  total("Amount due", view.amount_due, true);

  doc.moveDown(1.5).font("Helvetica").fontSize(10);
  doc.text(`Accepted: ${view.accepted_methods.map((m) => `${m.currency} on ${m.blockchain}`).join(", ")}`, margin, doc.y, { width: contentWidth });
  if (kind === "invoice") doc.text(`Pay online: ${view.url}`, { width: contentWidth, link: view.url });
  if (view.notes) doc.moveDown(1).text(view.notes, { width: contentWidth });
  doc.end();
  return done;
}
