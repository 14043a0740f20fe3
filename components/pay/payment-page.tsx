"use client";

import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { checkoutView, type AmountDue } from "@/lib/orders/checkout-view";
import type { PublicOrder } from "@/lib/orders/public-order";
import { QueryProvider } from "@/components/providers/query-provider";
import { CopyButton } from "@/components/ui/copy-button";
import { Countdown, useTimeLeft } from "./countdown";
import { SandboxControls } from "./sandbox-controls";
import { StatusPanel } from "./status-panel";
import { usePublicOrder } from "./use-public-order";
import { WalletPay } from "./wallet-pay";
import styles from "./pay.module.css";

// Only over-, under- and late-paid orders have it: a separate chunk, out of an open order's first load.
const RefundAddressForm = lazy(() => import("./refund-address-form").then((m) => ({ default: m.RefundAddressForm })));
// Only orders with several methods have it, and only until money arrives: out of the first load too.
const MethodChoice = lazy(() => import("./method-choice").then((m) => ({ default: m.MethodChoice })));

const copyClass = `${styles.button} ${styles.secondary} ${styles.small}`;

interface Props {
  order: PublicOrder;
  walletConnectProjectId: string | null;
  /** What a link's order bought, rendered on the server (app/pay/[orderId]/page.tsx). */
  item?: ReactNode;
}

/** QR code, amount still due, address and countdown: shown only while a payment is expected. */
function PaymentDetails({ order, due, timeLeft }: { order: PublicOrder; due: AmountDue; timeLeft: number | null }) {
  const network = order.blockchain.name;
  return (
    <section className={`${styles.card} ${styles.details}`} aria-labelledby="details-title">
      <h2 id="details-title" className={styles.visuallyHidden}>
        Payment details
      </h2>
      <figure style={{ margin: 0 }}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a same-origin SVG; next/image adds nothing here */}
        <img
          className={styles.qr}
          // The code asks for what is still due: a new address per amount, so no cached code outlives a partial payment.
          src={`${order.qr_code_url}?due=${due.baseUnits}`}
          width={216}
          height={216}
          alt={`QR code to pay ${due.exact} ${order.currency} to the deposit address ${order.receiving_address} on ${network}. Scan it with a wallet app, or copy the amount and address.`}
        />
        <figcaption className={styles.qrCaption}>Scan with your wallet app</figcaption>
      </figure>
      <dl className={styles.facts}>
        <div>
          <dt>{order.amount_received === "0" ? "Amount" : "Amount still due"}</dt>
          <dd className={styles.row}>
            <span className={styles.mono} data-testid="amount">
              {due.exact} {order.currency}
            </span>
            <CopyButton text={due.exact} label="Copy the amount" className={copyClass}>
              Copy
            </CopyButton>
          </dd>
        </div>
        {order.price_amount && order.price_currency && order.rate && (
          <div data-testid="fiat-price">
            <dt>Price</dt>
            <dd>
              {order.price_amount} {order.price_currency}{" "}
              <span className={styles.hint}>
                at 1 {order.currency} = {order.rate} {order.price_currency}, locked until the payment window closes
                {order.rate_updated_at ? ` (price feed of ${new Date(order.rate_updated_at).toISOString().slice(0, 16).replace("T", " ")} UTC)` : ""}
              </span>
            </dd>
          </div>
        )}
        <div>
          <dt>Network</dt>
          <dd>
            {network} (chain id {order.blockchain.chain_id})
          </dd>
        </div>
        {order.token.address && (
          <div>
            <dt>Token contract</dt>
            <dd className={styles.mono}>{order.token.address}</dd>
          </div>
        )}
        <div>
          <dt>Deposit address</dt>
          <dd className={styles.row}>
            <code className={styles.mono} data-testid="address">
              {order.receiving_address}
            </code>
            <CopyButton text={order.receiving_address} label="Copy the deposit address" className={copyClass}>
              Copy
            </CopyButton>
          </dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd>
            <Countdown expiresAt={order.expires_at} timeLeft={timeLeft} />
          </dd>
        </div>
      </dl>
      <p className={`${styles.hint} ${styles.fullRow}`}>
        Send only {order.currency} on {network}. Another token or network does not pay this order; {order.shop_name || "the shop"} sees such a payment and can refund it.
      </p>
    </section>
  );
}

function PaymentView({ order: initial, walletConnectProjectId, item }: Props) {
  const query = usePublicOrder(initial);
  const order = query.data;
  const view = checkoutView(order);
  const timeLeft = useTimeLeft(order.expires_at);
  // When the live status is up (hydrated and polling): bench/pay-page.ts reads this mark.
  useEffect(() => {
    performance.mark("pay:status-live");
  }, []);

  return (
    <main className={styles.page} data-color-scheme="auto">
      {order.sandbox && (
        <p className={styles.banner} role="note" data-testid="sandbox-banner">
          Test mode: this is a sandbox payment on a test network. No real funds are involved.
        </p>
      )}
      <header className={styles.header}>
        <p className={styles.shop}>{order.shop_name ? `Payment to ${order.shop_name}` : "Payment"}</p>
        {item}
        <h1 className={styles.title}>{view.headline}</h1>
        <p className={styles.network} data-testid="subline">
          {view.subline}
          {order.token.address ? ` (token ${order.currency})` : ` (native ${order.currency})`}
        </p>
      </header>

      <StatusPanel order={order} view={view} timeLeft={timeLeft} stale={query.isError} />
      {(order.refund_address_allowed || order.refund_address) && (
        <Suspense fallback={null}>
          <RefundAddressForm order={order} />
        </Suspense>
      )}
      {/* Test mode's tools sit above the parts that leave once paid, so the page does not jump under them. */}
      {order.sandbox && <SandboxControls order={order} />}

      {view.due && (
        <>
          {order.methods.length > 1 && !order.method_fixed && (
            <Suspense fallback={null}>
              <MethodChoice order={order} />
            </Suspense>
          )}
          <PaymentDetails order={order} due={view.due} timeLeft={timeLeft} />
          <WalletPay order={order} due={view.due} walletConnectProjectId={walletConnectProjectId} />
        </>
      )}

      <footer className={styles.footer}>
        Order <span className={styles.mono}>{order.order_id}</span>
      </footer>
    </main>
  );
}

/** The hosted payment page's client part: live status, QR, address, countdown, wallet and sandbox controls. */
export function PaymentPage(props: Props) {
  return (
    <QueryProvider>
      <PaymentView {...props} />
    </QueryProvider>
  );
}
