import { getLocale, getTranslations } from "next-intl/server";
import { displayFiat, utcDateTime } from "@/lib/money/display-amount";
import type { Receipt } from "@/lib/orders/receipt";
import { PrintButton } from "./print-button";
import styles from "./pay.module.css";
import receiptStyles from "./receipt.module.css";

/** The printable receipt of a confirmed order: a server component, no client code but the print button. */
export async function ReceiptView({ receipt }: { receipt: Receipt }) {
  const [t, locale] = await Promise.all([getTranslations("receipt"), getLocale()]);
  return (
    <main className={`${styles.page} ${receiptStyles.receipt}`} data-color-scheme="auto">
      {receipt.sandbox && (
        <p className={styles.banner} role="note" data-testid="sandbox-banner">
          {t("sandbox")}
        </p>
      )}
      <header className={styles.header}>
        <p className={styles.shop}>{receipt.shop_name ? t("paidTo", { shop: receipt.shop_name }) : t("paymentReceipt")}</p>
        <h1 className={styles.title}>
          {t("heading")} <span className={receiptStyles.paid}>{t("paid")}</span>
        </h1>
      </header>
      <section className={`${styles.card} ${receiptStyles.card}`} aria-label={t("heading")}>
        <dl className={receiptStyles.lines} data-testid="receipt">
          {receipt.item && (
            <>
              <div>
                <dt>{t("item")}</dt>
                <dd data-testid="receipt-item">{receipt.item.name}</dd>
              </div>
              <div>
                <dt>{t("quantity")}</dt>
                <dd data-testid="receipt-quantity">{receipt.item.quantity}</dd>
              </div>
            </>
          )}
          {receipt.price && (
            <>
              <div>
                <dt>{t("price")}</dt>
                <dd data-testid="receipt-price">{displayFiat(receipt.price.amount, receipt.price.currency, locale)}</dd>
              </div>
              <div>
                <dt>{t("rate")}</dt>
                <dd>{t("rateLine", { token: receipt.currency, rate: receipt.price.rate, currency: receipt.price.currency })}</dd>
              </div>
            </>
          )}
          <div>
            <dt>{t("amount")}</dt>
            <dd className={`${receiptStyles.total} ${styles.mono}`} data-testid="receipt-amount">
              {receipt.amount} {receipt.currency}
            </dd>
          </div>
          <div>
            <dt>{t("method")}</dt>
            <dd data-testid="receipt-method">{t("methodLine", { token: receipt.method.token, network: receipt.method.blockchain })}</dd>
          </div>
          {receipt.transaction_hash && (
            <div>
              <dt>{t("transaction")}</dt>
              <dd className={styles.mono} data-testid="receipt-tx">
                {receipt.transaction_url ? (
                  <a className={styles.link} href={receipt.transaction_url} target="_blank" rel="noreferrer noopener">
                    {receipt.transaction_hash}
                    <span className={styles.visuallyHidden}> {t("explorer")}</span>
                  </a>
                ) : (
                  receipt.transaction_hash
                )}
              </dd>
            </div>
          )}
          <div>
            <dt>{t("time")}</dt>
            <dd>
              <time dateTime={receipt.paid_at}>{utcDateTime(receipt.paid_at, locale, "long")}</time>
            </dd>
          </div>
          <div>
            <dt>{t("order")}</dt>
            <dd className={styles.mono}>{receipt.order_id}</dd>
          </div>
        </dl>
      </section>
      <div className={`${receiptStyles.actions} ${receiptStyles.noPrint}`}>
        <PrintButton label={t("print")} className={styles.button} />
        <a className={`${styles.button} ${styles.secondary}`} href={`/pay/${receipt.order_id}`}>
          {t("backToPayment")}
        </a>
      </div>
    </main>
  );
}
