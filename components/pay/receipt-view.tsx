import { defaultLocale, displayFiat } from "@/lib/orders/display-amount";
import type { Receipt } from "@/lib/orders/receipt";
import { PrintButton } from "./print-button";
import styles from "./pay.module.css";
import receiptStyles from "./receipt.module.css";

/** Every word the receipt shows the customer, in one place (for translation later). */
export const receiptText = {
  pageTitle: "Receipt",
  paidTo: (shop: string) => (shop ? `Paid to ${shop}` : "Payment receipt"),
  heading: "Receipt",
  paid: "Paid",
  sandbox: "Test mode: this receipt is for a sandbox payment on a test network. No real funds were involved.",
  item: "Item",
  quantity: "Quantity",
  price: "Price",
  rate: "Exchange rate",
  rateLine: (token: string, rate: string, currency: string) => `1 ${token} = ${rate} ${currency}, locked when the order was made`,
  amount: "Amount paid",
  method: "Paid with",
  methodLine: (token: string, network: string) => `${token} on ${network}`,
  transaction: "Transaction",
  explorer: "(opens the block explorer in a new tab)",
  time: "Paid at",
  order: "Order",
  print: "Print or save as PDF",
  backToPayment: "Back to the payment page",
  notFoundTitle: "No receipt here",
  notFoundBody:
    "A receipt is issued once a payment is confirmed. If you have just paid, go back to the payment page: it shows the receipt link when the payment is confirmed. Otherwise check the link the shop gave you.",
};

function formatTime(iso: string, locale: string): string {
  return `${new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

/** The printable receipt of a confirmed order: a server component, no client code but the print button. */
export function ReceiptView({ receipt, locale = defaultLocale }: { receipt: Receipt; locale?: string }) {
  const t = receiptText;
  return (
    <main className={`${styles.page} ${receiptStyles.receipt}`} data-color-scheme="auto">
      {receipt.sandbox && (
        <p className={styles.banner} role="note" data-testid="sandbox-banner">
          {t.sandbox}
        </p>
      )}
      <header className={styles.header}>
        <p className={styles.shop}>{t.paidTo(receipt.shop_name)}</p>
        <h1 className={styles.title}>
          {t.heading} <span className={receiptStyles.paid}>{t.paid}</span>
        </h1>
      </header>
      <section className={`${styles.card} ${receiptStyles.card}`} aria-label={t.heading}>
        <dl className={receiptStyles.lines} data-testid="receipt">
          {receipt.item && (
            <>
              <div>
                <dt>{t.item}</dt>
                <dd data-testid="receipt-item">{receipt.item.name}</dd>
              </div>
              <div>
                <dt>{t.quantity}</dt>
                <dd data-testid="receipt-quantity">{receipt.item.quantity}</dd>
              </div>
            </>
          )}
          {receipt.price && (
            <>
              <div>
                <dt>{t.price}</dt>
                <dd data-testid="receipt-price">{displayFiat(receipt.price.amount, receipt.price.currency, locale)}</dd>
              </div>
              <div>
                <dt>{t.rate}</dt>
                <dd>{t.rateLine(receipt.currency, receipt.price.rate, receipt.price.currency)}</dd>
              </div>
            </>
          )}
          <div>
            <dt>{t.amount}</dt>
            <dd className={`${receiptStyles.total} ${styles.mono}`} data-testid="receipt-amount">
              {receipt.amount} {receipt.currency}
            </dd>
          </div>
          <div>
            <dt>{t.method}</dt>
            <dd data-testid="receipt-method">{t.methodLine(receipt.method.token, receipt.method.blockchain)}</dd>
          </div>
          {receipt.transaction_hash && (
            <div>
              <dt>{t.transaction}</dt>
              <dd className={styles.mono} data-testid="receipt-tx">
                {receipt.transaction_url ? (
                  <a className={styles.link} href={receipt.transaction_url} target="_blank" rel="noreferrer noopener">
                    {receipt.transaction_hash}
                    <span className={styles.visuallyHidden}> {t.explorer}</span>
                  </a>
                ) : (
                  receipt.transaction_hash
                )}
              </dd>
            </div>
          )}
          <div>
            <dt>{t.time}</dt>
            <dd>
              <time dateTime={receipt.paid_at}>{formatTime(receipt.paid_at, locale)}</time>
            </dd>
          </div>
          <div>
            <dt>{t.order}</dt>
            <dd className={styles.mono}>{receipt.order_id}</dd>
          </div>
        </dl>
      </section>
      <div className={`${receiptStyles.actions} ${receiptStyles.noPrint}`}>
        <PrintButton label={t.print} className={styles.button} />
        <a className={`${styles.button} ${styles.secondary}`} href={`/pay/${receipt.order_id}`}>
          {t.backToPayment}
        </a>
      </div>
    </main>
  );
}
