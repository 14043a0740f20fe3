import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PaymentPage } from "@/components/pay/payment-page";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { getPublicOrder } from "@/lib/orders/public-order";

// Always fresh: the status is live data.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Pay your order",
  // Payment pages are per-customer links, not content.
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

// GET /pay/{order_id} – the hosted payment page (public; ORD-… ids only, customer-safe fields only)
export default async function PayPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  const order = await getPublicOrder(await getDb(), orderId);
  if (!order) notFound();
  return <PaymentPage order={order} walletConnectProjectId={env.WALLETCONNECT_PROJECT_ID ?? null} />;
}
