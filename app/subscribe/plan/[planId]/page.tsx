import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import styles from "@/components/pay/pay.module.css";
import { StoreBrand } from "@/components/pay/store-brand";
import { PlanSubscribeForm } from "@/components/subscribe/plan-subscribe-form";
import { SubscriptionHeader, SubscriptionTerms } from "@/components/subscribe/subscription-terms";
import { getDb } from "@/lib/db/client";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { findPublicPlanView, lookOf } from "@/lib/subscriptions/page-views";

// Always fresh: the merchant may switch the link off or archive the plan at any time.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("subscribe");
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

// GET /subscribe/plan/{plan_id} – a plan's public subscribe page: the terms, the customer's wallet, then their own /subscribe/{subscription_id}
export default async function PlanSubscribePage({ params }: { params: Promise<{ planId: string }> }) {
  const { planId } = await params;
  const view = await findPublicPlanView(await getDb(), planId);
  if (!view) notFound();
  const t = await getTranslations("subscribe");
  // The terms as they would be fixed for a customer subscribing now (the first charge after the trial).
  const terms = { ...view, plan_name: view.name, starts_at: view.first_charge_at };
  return (
    <>
      <LocaleSwitcher returnTo={`/subscribe/plan/${view.id}`} />
      <StoreBrand look={lookOf(view)}>
        <main className={styles.page} data-color-scheme="auto">
          <SubscriptionHeader view={terms} heading={view.name} />
          <SubscriptionTerms view={terms} />
          <section className={styles.card} aria-labelledby="how-to-cancel">
            <h2 id="how-to-cancel" className={styles.sectionTitle}>
              {t("cancelTitle")}
            </h2>
            <p>{t("cancelText")}</p>
          </section>
          {view.status !== "active" ? (
            <p className={`${styles.card} ${styles.notice}`} role="status" data-testid="plan-closed">
              {t("planClosed")}
            </p>
          ) : (
            <NextIntlClientProvider messages={pickMessages(await getMessages(), ["subscribe"])}>
              <PlanSubscribeForm planId={view.id} network={view.blockchain.name} />
            </NextIntlClientProvider>
          )}
        </main>
      </StoreBrand>
    </>
  );
}
