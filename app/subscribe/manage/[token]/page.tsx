import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getFormatter, getMessages, getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import styles from "@/components/pay/pay.module.css";
import { StoreBrand } from "@/components/pay/store-brand";
import { ManageActions } from "@/components/subscribe/manage-actions";
import { SubscriptionHeader, SubscriptionTerms } from "@/components/subscribe/subscription-terms";
import { getDb } from "@/lib/db/client";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { findManagedSubscriptionView, lookOf } from "@/lib/subscriptions/page-views";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("subscribe");
  // The path is the capability: never sent on as a referrer, never indexed.
  return { title: t("manageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

const live = new Set(["trialing", "active", "past_due", "paused"]);
const eventKinds = new Set(["created", "charged", "payment_failed", "past_due", "paused", "resumed", "canceled", "ended"]);

// GET /subscribe/manage/{token} – the customer's manage page (the link the subscribe page gives): see, cancel, revoke
export default async function ManageSubscriptionPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await findManagedSubscriptionView(await getDb(), decodeURIComponent(token));
  if (!view) notFound();
  const [t, format] = await Promise.all([getTranslations("subscribe"), getFormatter()]);
  return (
    <>
      <LocaleSwitcher returnTo={`/subscribe/manage/${token}`} />
      <StoreBrand look={lookOf(view)}>
        <main className={styles.page} data-color-scheme="auto">
          <SubscriptionHeader view={view} heading={t("manageTitle")} />
          <p className={`${styles.card} ${styles.notice}`} role="status">
            <strong>{view.plan_name}</strong> · {t("statusLabel")}: <span data-testid="subscription-status">{t(`status_${view.status}`)}</span>
            {view.status === "canceled" && (
              <>
                <br />
                {t("canceledNotice")}
              </>
            )}
          </p>
          <SubscriptionTerms view={view}>
            <div>
              <dt>{t("periodsCharged")}</dt>
              <dd data-testid="periods-charged">{view.periods_charged}</dd>
            </div>
          </SubscriptionTerms>
          <section className={styles.card} aria-labelledby="history-title">
            <h2 id="history-title" className={styles.sectionTitle}>
              {t("historyTitle")}
            </h2>
            <ul data-testid="history">
              {view.history
                .filter((event) => eventKinds.has(event.kind))
                .map((event, i) => (
                  <li key={i}>
                    {format.dateTime(new Date(event.created_at), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC —{" "}
                    {t(`event_${event.kind as "created"}`)}
                  </li>
                ))}
            </ul>
          </section>
          <NextIntlClientProvider messages={pickMessages(await getMessages(), ["subscribe"])}>
            <ManageActions
              token={decodeURIComponent(token)}
              live={live.has(view.status)}
              chainId={view.blockchain.chain_id ?? 0}
              tokenAddress={view.authorization.token}
              pullAddress={view.pull_address}
              customerAddress={view.customer_address}
            />
          </NextIntlClientProvider>
        </main>
      </StoreBrand>
    </>
  );
}
