import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import styles from "@/components/pay/pay.module.css";
import { StoreBrand } from "@/components/pay/store-brand";
import { SubscribeCheckout } from "@/components/subscribe/subscribe-checkout";
import { SubscriptionHeader, SubscriptionTerms } from "@/components/subscribe/subscription-terms";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { allowanceAmount, findHostedSubscriptionView, lookOf, walletChainInfo } from "@/lib/subscriptions/page-views";

// Always fresh: the allowance and the status are live.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("subscribe");
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

const live = new Set(["trialing", "active", "past_due"]);

// GET /subscribe/{subscription_id} – the hosted subscribe page: the terms, and the customer's one signature
export default async function SubscribePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const view = await findHostedSubscriptionView(await getDb(), id);
  if (!view) notFound();
  const t = await getTranslations("subscribe");
  const allowance = allowanceAmount(view);
  // WalletConnect only where it is configured (the CSP allows its relay only then: proxy.ts).
  const chain = walletChainInfo(view.blockchain.slug);
  const walletConnect = env.WALLETCONNECT_PROJECT_ID && chain ? { projectId: env.WALLETCONNECT_PROJECT_ID, shopName: view.shop_name, chain } : null;
  return (
    <>
      <LocaleSwitcher returnTo={`/subscribe/${view.id}`} />
      <StoreBrand look={lookOf(view)}>
        <main className={styles.page} data-color-scheme="auto">
          <SubscriptionHeader view={view} heading={view.plan_name} />
          <SubscriptionTerms view={view} allowance={allowance} />
          <section className={styles.card} aria-labelledby="how-to-cancel">
            <h2 id="how-to-cancel" className={styles.sectionTitle}>
              {t("cancelTitle")}
            </h2>
            <p>{t("cancelText")}</p>
          </section>
          {!live.has(view.status) ? (
            <p className={`${styles.card} ${styles.notice}`} role="status" data-testid="closed">
              {t("closed", { status: t(`status_${view.status}`) })}
            </p>
          ) : view.authorized ? (
            <p className={`${styles.card} ${styles.notice}`} role="status" data-testid="authorized">
              {t("alreadyAuthorized")}
            </p>
          ) : (
            <NextIntlClientProvider messages={pickMessages(await getMessages(), ["subscribe"])}>
              <SubscribeCheckout
                subscription={{
                  id: view.id,
                  chainId: view.blockchain.chain_id ?? 0,
                  network: view.blockchain.name,
                  customerAddress: view.customer_address,
                  pullAddress: view.pull_address,
                  token: view.authorization.token,
                  value: view.authorization.value,
                  method: view.permit ? "permit" : "approve",
                  allowance,
                  currency: view.currency,
                  permit: view.permit,
                }}
                walletConnect={walletConnect}
              />
            </NextIntlClientProvider>
          )}
        </main>
      </StoreBrand>
    </>
  );
}
