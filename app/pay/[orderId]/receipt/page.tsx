import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ReceiptView, receiptText } from "@/components/pay/receipt-view";
import { getDb } from "@/lib/db/client";
import { getReceipt } from "@/lib/orders/receipt";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: receiptText.pageTitle,
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

// GET /pay/{order_id}/receipt – a confirmed order's public, printable receipt (others: 404)
export default async function ReceiptPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  const receipt = await getReceipt(await getDb(), orderId);
  if (!receipt) notFound();
  return <ReceiptView receipt={receipt} />;
}
