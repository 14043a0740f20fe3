import { getFormatter, getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

export interface TermsView {
  shop_name: string;
  plan_name: string;
  currency: string;
  max_amount: string;
  interval_days: number;
  trial_days: number;
  periods: number | null;
  starts_at: string;
  /** The plan's public page has none yet: the customer gives it there. */
  customer_address?: string;
  blockchain: { name: string };
  brand: { support_email: string | null; support_url: string | null };
}

/** The header and the terms of a subscription, as both customer pages show them. */
export async function SubscriptionHeader({ view, heading }: { view: TermsView; heading: string }) {
  const t = await getTranslations("subscribe");
  return (
    <header className={styles.header}>
      <p className={styles.shop}>{view.shop_name}</p>
      <h1 className={styles.title}>{heading}</h1>
      <p className={styles.network} data-testid="price">
        {t("every", { amount: view.max_amount, currency: view.currency, days: view.interval_days })} · {view.blockchain.name}
      </p>
    </header>
  );
}

export async function SubscriptionTerms({ view, allowance, children }: { view: TermsView; allowance?: string; children?: React.ReactNode }) {
  const [t, format] = await Promise.all([getTranslations("subscribe"), getFormatter()]);
  const date = format.dateTime(new Date(view.starts_at), { dateStyle: "long", timeZone: "UTC" });
  return (
    <section className={styles.card} aria-labelledby="terms-title">
      <h2 id="terms-title" className={styles.sectionTitle}>
        {t("termsTitle")}
      </h2>
      <dl className={styles.facts}>
        <div>
          <dt>{t("amountPerPeriod")}</dt>
          <dd className={styles.mono} data-testid="cap">
            {t("atMost", { amount: view.max_amount, currency: view.currency })}
          </dd>
        </div>
        <div>
          <dt>{t("period")}</dt>
          <dd>{t("days", { days: view.interval_days })}</dd>
        </div>
        <div>
          <dt>{t("firstCharge")}</dt>
          <dd>{view.trial_days > 0 ? t("firstChargeTrial", { date, days: view.trial_days }) : t("firstChargeFrom", { date })}</dd>
        </div>
        <div>
          <dt>{t("periods")}</dt>
          <dd>{view.periods ?? t("untilCancel")}</dd>
        </div>
        {allowance && (
          <div>
            <dt>{t("allowance")}</dt>
            <dd>
              <span className={styles.mono}>
                {allowance} {view.currency}
              </span>
              <br />
              <span className={styles.hint}>{t("allowanceHint", { shop: view.shop_name })}</span>
            </dd>
          </div>
        )}
        <div>
          <dt>{t("paidTo")}</dt>
          <dd>{view.shop_name}</dd>
        </div>
        {view.customer_address && (
          <div>
            <dt>{t("yourWallet")}</dt>
            <dd className={styles.mono}>{view.customer_address}</dd>
          </div>
        )}
        <div>
          <dt>{t("network")}</dt>
          <dd>{view.blockchain.name}</dd>
        </div>
        {children}
      </dl>
    </section>
  );
}
