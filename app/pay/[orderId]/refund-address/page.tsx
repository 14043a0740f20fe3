import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import { RefundLinkForm } from "@/components/pay/refund-link-form";
import { StoreBrand } from "@/components/pay/store-brand";
import { storeLookForOrder } from "@/lib/branding/look-for-page";
import { getDb } from "@/lib/db/client";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { getPublicOrder } from "@/lib/orders/public-order";
import { checkRefundAddressLink } from "@/lib/receipts/refund-address-link";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("refund");
  // The token is in the URL: no referrer leaves this page, and it is not for search engines.
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

// GET /pay/{order_id}/refund-address?token=… – the mailed one-time link: the customer names their refund address (issue 52)
export default async function RefundAddressLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ orderId: string }>;
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const { orderId } = await params;
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw.slice(0, 200) : "";
  const db = await getDb();
  const order = await getPublicOrder(db, orderId);
  if (!order) notFound();
  // Read only: the link is spent when the address is saved, not when the page opens (mail scanners open links).
  const link = await checkRefundAddressLink(db, order.order_id, token);
  const look = await storeLookForOrder(db, order.order_id);
  return (
    <>
      <LocaleSwitcher returnTo={`/pay/${order.order_id}/refund-address?token=${encodeURIComponent(token)}`} />
      <StoreBrand look={look}>
        <NextIntlClientProvider messages={pickMessages(await getMessages(), ["refund", "errors"])}>
          <RefundLinkForm
            order={{ orderId: order.order_id, shopName: order.shop_name, network: order.blockchain.name, currency: order.currency }}
            token={token}
            valid={link.valid}
          />
        </NextIntlClientProvider>
      </StoreBrand>
    </>
  );
}
