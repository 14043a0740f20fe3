"use client";

import { useEffect } from "react";
import type { PublicOrder } from "@/lib/orders/public-order";
import { QueryProvider } from "@/components/providers/query-provider";
import { CopyButton } from "@/components/ui/copy-button";
import { Countdown, useTimeLeft } from "./countdown";
import { RefundAddressForm } from "./refund-address-form";
import { SandboxControls } from "./sandbox-controls";
import { StatusPanel } from "./status-panel";
import { usePublicOrder } from "./use-public-order";
import { WalletPay } from "./wallet-pay";
import styles from "./pay.module.css";

const copyClass = `${styles.button} ${styles.secondary} ${styles.small}`;

interface Props {
  order: PublicOrder;
  walletConnectProjectId: string | null;
}

function PaymentView({ order: initial, walletConnectProjectId }: Props) {
  const query = usePublicOrder(initial);
  const order = query.data;
  const timeLeft = useTimeLeft(order.expires_at);
  const open = order.status === "pending";
  const network = order.blockchain.name;
  const asset = `${order.amount} ${order.currency}`;
  // When the live status is up (hydrated and polling): bench/pay-page.ts reads this mark.
  useEffect(() => {
    performance.mark("pay:status-live");
  }, []);

  return (
    <main className={styles.page}>
      {order.sandbox && (
        <p className={styles.banner} role="note" data-testid="sandbox-banner">
          Test mode: this is a sandbox payment on a test network. No real funds are involved.
        </p>
      )}
      <header className={styles.header}>
        <p className={styles.shop}>{order.shop_name ? `Payment to ${order.shop_name}` : "Payment"}</p>
        <h1 className={styles.title}>
          Pay {asset}
        </h1>
        <p className={styles.network}>
          on <strong>{network}</strong>
          {order.token.address ? ` (token ${order.currency})` : ` (native ${order.currency})`}
        </p>
      </header>

      <StatusPanel order={order} timeLeft={timeLeft} stale={query.isError} />
      <RefundAddressForm order={order} />

      <section className={`${styles.card} ${styles.details} ${open ? "" : styles.dimmed}`} aria-labelledby="details-title">
        <h2 id="details-title" className={styles.visuallyHidden}>
          Payment details
        </h2>
        <figure style={{ margin: 0 }}>
          {/* eslint-disable-next-line @next/next/no-img-element -- a same-origin SVG; next/image adds nothing here */}
          <img
            className={styles.qr}
            src={order.qr_code_url}
            width={216}
            height={216}
            alt={`QR code for the deposit address ${order.receiving_address} on ${network}${order.token.address ? "" : `, for ${asset}`}. Scan it with a wallet app, or copy the address below.`}
          />
          <figcaption className={styles.qrCaption}>Scan with your wallet app</figcaption>
        </figure>
        <dl className={styles.facts}>
          <div>
            <dt>Amount</dt>
            <dd className={styles.row}>
              <span className={styles.mono} data-testid="amount">
                {order.amount} {order.currency}
              </span>
              <CopyButton text={order.amount} label="Copy the amount" className={copyClass}>
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
              {open ? <Countdown expiresAt={order.expires_at} timeLeft={timeLeft} /> : <span className={styles.countdown}>—</span>}
            </dd>
          </div>
        </dl>
      </section>

      <WalletPay order={order} walletConnectProjectId={walletConnectProjectId} />
      {order.sandbox && <SandboxControls order={order} />}

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
