import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import { ReceiptView } from "@/components/pay/receipt-view";
import { StoreBrand } from "@/components/pay/store-brand";
import { storeLookForOrder } from "@/lib/branding/look-for-page";
import { getDb } from "@/lib/db/client";
import { getReceipt } from "@/lib/orders/receipt";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("receipt");
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

// GET /pay/{order_id}/receipt – a confirmed order's public, printable receipt (others: 404)
export default async function ReceiptPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  const receipt = await getReceipt(await getDb(), orderId);
  if (!receipt) notFound();
  return (
    <>
      <LocaleSwitcher returnTo={`/pay/${receipt.order_id}/receipt`} />
      <StoreBrand look={await storeLookForOrder(await getDb(), receipt.order_id)}>
        <ReceiptView receipt={receipt} />
      </StoreBrand>
    </>
  );
}
