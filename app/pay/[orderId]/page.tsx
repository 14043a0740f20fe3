import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import { StoreBrand } from "@/components/pay/store-brand";
import { storeLookForOrder } from "@/lib/branding/look-for-page";
import { PaymentPage } from "@/components/pay/payment-page";
import styles from "@/components/pay/pay.module.css";
import { itemLine, payPageFirstTexts } from "@/lib/orders/checkout-view";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { getPublicOrder } from "@/lib/orders/public-order";

// Always fresh: the status is live data.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pay");
  return {
    title: t("pageTitle"),
    // Payment pages are per-customer links, not content.
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
}

// GET /pay/{order_id} – the hosted payment page (public; ORD-… ids only, customer-safe fields only)
export default async function PayPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  const order = await getPublicOrder(await getDb(), orderId);
  if (!order) notFound();
  // A link order's item never changes: rendered here, so its line is not in the page's bundle.
  const item = order.item && (
    <p className={styles.item} data-testid="item">
      {itemLine(order.item)}
    </p>
  );
  const look = await storeLookForOrder(await getDb(), order.order_id);
  return (
    <>
      {/* Above the page: the parts that leave once paid must not move it (no layout shift). */}
      <LocaleSwitcher returnTo={`/pay/${order.order_id}`} />
      <StoreBrand look={look}>
        {/* Only the active locale's messages, and only the namespaces the page's client part uses. */}
        <NextIntlClientProvider messages={pickMessages(await getMessages(), ["pay", "status", "checkout", "wallet", "errors", "methods", "refund"])}>
          <PaymentPage
            order={order}
            item={item}
            walletConnectProjectId={env.WALLETCONNECT_PROJECT_ID ?? null}
            texts={payPageFirstTexts(order, await getLocale())}
            support={look && { email: look.supportEmail, url: look.supportUrl }}
          />
        </NextIntlClientProvider>
      </StoreBrand>
    </>
  );
}
