"use client";

import { useLocale, useTranslations } from "next-intl";
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { checkoutView, type AmountDue } from "@/lib/orders/checkout-view";
import { adoptServerTexts, displayFiat, utcDateTime } from "@/lib/money/display-amount";
import type { PublicOrder } from "@/lib/orders/schemas";
import { CopyButton } from "@/components/ui/copy-button";
import { Countdown, useTimeUp } from "./countdown";
import { SandboxControls } from "./sandbox-controls";
import { StatusPanel } from "./status-panel";
import type { StoreSupportContact } from "./store-support";
import { usePublicOrder } from "./use-public-order";
import { WalletPay } from "./wallet-pay";
import styles from "./pay.module.css";

// Only over-, under- and late-paid orders have it: a separate chunk, out of an open order's first load.
const ReceiptEmailForm = lazy(() => import("./receipt-email-form").then((m) => ({ default: m.ReceiptEmailForm })));
const RefundAddressForm = lazy(() => import("./refund-address-form").then((m) => ({ default: m.RefundAddressForm })));
// Only orders with several methods have it, and only until money arrives: out of the first load too.
const MethodChoice = lazy(() => import("./method-choice").then((m) => ({ default: m.MethodChoice })));

const copyClass = `${styles.button} ${styles.secondary} ${styles.small}`;

interface Props {
  order: PublicOrder;
  walletConnectProjectId: string | null;
  /** What a link's order bought, rendered on the server (app/pay/[orderId]/page.tsx). */
  item?: ReactNode;
  /** The amounts and times of the first render, formatted on the server (payPageFirstTexts). */
  texts: Record<string, string>;
  /** The store's support contact (its branding), shown at the page's foot and in the refund part. */
  support?: StoreSupportContact | null;
}

/** QR code, amount still due, address and countdown: shown only while a payment is expected. */
function PaymentDetails({ order, due }: { order: PublicOrder; due: AmountDue }) {
  const t = useTranslations("pay");
  const locale = useLocale();
  const network = order.blockchain.name;
  const copyWords = { copied: t("copied"), copiedStatus: t("copiedStatus"), failed: t("copyFailed") };
  return (
    <section className={`${styles.card} ${styles.details}`} aria-labelledby="details-title">
      <h2 id="details-title" className={styles.visuallyHidden}>
        {t("detailsTitle")}
      </h2>
      <figure style={{ margin: 0 }}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a same-origin SVG; next/image adds nothing here */}
        <img
          className={styles.qr}
          // The code asks for what is still due: a new address per amount, so no cached code outlives a partial payment.
          src={`${order.qr_code_url}?due=${due.baseUnits}`}
          width={216}
          height={216}
          alt={t("qrAlt", { amount: due.exact, currency: order.currency, address: order.receiving_address, network })}
        />
        <figcaption className={styles.qrCaption}>{t("qrCaption")}</figcaption>
      </figure>
      <dl className={styles.facts}>
        <div>
          <dt>{order.amount_received === "0" ? t("amount") : t("amountDue")}</dt>
          <dd className={styles.row}>
            <span className={styles.mono} data-testid="amount">
              {due.exact} {order.currency}
            </span>
            <CopyButton text={due.exact} label={t("copyAmount")} className={copyClass} words={copyWords}>
              {t("copy")}
            </CopyButton>
          </dd>
        </div>
        {order.price_amount && order.price_currency && order.rate && (
          <div data-testid="fiat-price">
            <dt>{t("price")}</dt>
            <dd>
              {displayFiat(order.price_amount, order.price_currency, locale)}{" "}
              <span className={styles.hint}>
                {t("rateHint", { currency: order.currency, rate: order.rate, priceCurrency: order.price_currency })}
                {order.rate_updated_at ? ` ${t("rateFeed", { time: utcDateTime(order.rate_updated_at, locale) })}` : ""}
              </span>
            </dd>
          </div>
        )}
        <div>
          <dt>{t("network")}</dt>
          <dd>{t("networkValue", { network, chainId: order.blockchain.chain_id })}</dd>
        </div>
        {order.token.address && (
          <div>
            <dt>{t("tokenContract")}</dt>
            <dd className={styles.mono}>{order.token.address}</dd>
          </div>
        )}
        <div>
          <dt>{t("depositAddress")}</dt>
          <dd className={styles.row}>
            <code className={styles.mono} data-testid="address">
              {order.receiving_address}
            </code>
            <CopyButton text={order.receiving_address} label={t("copyAddress")} className={copyClass} words={copyWords}>
              {t("copy")}
            </CopyButton>
          </dd>
        </div>
        <div>
          <dt>{t("timeLeft")}</dt>
          <dd>
            <Countdown expiresAt={order.expires_at} />
          </dd>
        </div>
      </dl>
      <p className={`${styles.hint} ${styles.fullRow}`}>{t("sendOnly", { currency: order.currency, network, shop: order.shop_name || t("theShop") })}</p>
    </section>
  );
}

function PaymentView({ order: initial, walletConnectProjectId, item, support = null }: Omit<Props, "texts">) {
  const t = useTranslations("pay");
  const checkoutWords = useTranslations("checkout");
  const locale = useLocale();
  const query = usePublicOrder(initial);
  const order = query.data;
  const view = checkoutView(order, checkoutWords, locale);
  const timeUp = useTimeUp(order.expires_at);
  // When the live status is up (hydrated and polling): bench/pay-page.ts reads this mark.
  useEffect(() => {
    performance.mark("pay:status-live");
  }, []);

  return (
    <main className={styles.page} data-color-scheme="auto">
      {order.sandbox && (
        <p className={styles.banner} role="note" data-testid="sandbox-banner">
          {t("sandboxBanner")}
        </p>
      )}
      <header className={styles.header}>
        <p className={styles.shop}>{order.shop_name ? t("paymentTo", { shop: order.shop_name }) : t("payment")}</p>
        {item}
        <h1 className={styles.title}>{view.headline}</h1>
        <p className={styles.network} data-testid="subline">
          {view.subline} {order.token.address ? t("tokenKind", { currency: order.currency }) : t("nativeKind", { currency: order.currency })}
        </p>
      </header>

      {/* The choice of chain and token comes before the instruction that names the token and the amount. */}
      {view.due && order.methods.length > 1 && !order.method_fixed && (
        <Suspense fallback={null}>
          <MethodChoice order={order} onChanged={query.refresh} />
        </Suspense>
      )}
      <StatusPanel order={order} view={view} timeUp={timeUp} stale={query.isError} />
      {(order.refund_address_allowed || order.refund_address) && (
        <Suspense fallback={null}>
          <RefundAddressForm order={order} onSaved={query.refresh} support={support} />
        </Suspense>
      )}
      {/* Test mode's tools sit above the parts that leave once paid, so the page does not jump under them. */}
      {order.sandbox && <SandboxControls order={order} onDone={query.refresh} />}

      {view.due && (
        <>
          <PaymentDetails order={order} due={view.due} />
          <WalletPay order={order} walletConnectProjectId={walletConnectProjectId} />
          {/* Asked while the payment is due, and leaves with the parts above once paid: nothing stays below them to jump. */}
          <Suspense fallback={null}>
            <ReceiptEmailForm orderId={order.order_id} />
          </Suspense>
        </>
      )}

      <footer className={styles.footer}>
        {t("order")} <span className={styles.mono}>{order.order_id}</span>
      </footer>
    </main>
  );
}

/** The hosted payment page's client part: live status, QR, address, countdown, wallet and sandbox controls. */
export function PaymentPage({ texts, ...props }: Props) {
  // Before anything below renders: hydrating then builds no Intl formatter.
  adoptServerTexts(texts);
  return <PaymentView {...props} />;
}
