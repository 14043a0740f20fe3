"use client";

import { useEffect, useState } from "react";
import type { PublicOrder } from "@/lib/orders/public-order";
import styles from "./pay.module.css";

/** Seconds the confirmed notice stays before sending the customer back to the shop. */
export const redirectDelaySeconds = 5;

function shortHash(hash: string): string {
  return `${hash.slice(0, 10)}…${hash.slice(-8)}`;
}

function TransactionLine({ order }: { order: PublicOrder }) {
  if (!order.transaction_hash) return null;
  return (
    <p className={styles.statusText}>
      Transaction{" "}
      {order.transaction_url ? (
        <a className={`${styles.link} ${styles.mono}`} href={order.transaction_url} target="_blank" rel="noreferrer noopener">
          {shortHash(order.transaction_hash)}
          <span className={styles.visuallyHidden}> (opens the block explorer in a new tab)</span>
        </a>
      ) : (
        <code className={styles.mono} data-testid="tx-hash" title={order.transaction_hash}>
          {shortHash(order.transaction_hash)}
        </code>
      )}
    </p>
  );
}

function Progress({ value, max, done }: { value: number; max: number; done?: boolean }) {
  const shown = Math.min(value, max);
  return (
    <div className={styles.progress} role="progressbar" aria-label="Confirmations" aria-valuemin={0} aria-valuemax={max} aria-valuenow={shown}>
      <div className={`${styles.progressBar} ${done ? styles.progressOk : ""}`} style={{ width: `${max > 0 ? (shown / max) * 100 : 100}%` }} />
    </div>
  );
}

/** After confirmation: back to the shop after a visible delay, which the customer can cut short or cancel. */
/** The destination's host, shown before the automatic return so the customer sees where they go; null for anything but http(s). */
function destinationHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.host : null;
  } catch {
    return null;
  }
}

function Redirect({ url, shopName }: { url: string; shopName: string }) {
  const [left, setLeft] = useState(redirectDelaySeconds);
  const [cancelled, setCancelled] = useState(false);
  const host = destinationHost(url);
  useEffect(() => {
    if (cancelled || !host) return;
    if (left <= 0) {
      window.location.assign(url);
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1_000);
    return () => clearTimeout(timer);
  }, [left, cancelled, url, host]);
  if (!host) return null;
  return (
    <p className={styles.statusText} data-testid="redirect-notice">
      {cancelled ? "Automatic return cancelled. " : `Returning you to ${shopName || "the shop"} at ${host} in ${Math.max(left, 0)} s. `}
      <a className={styles.link} href={url}>
        Return now
      </a>
      {!cancelled && (
        <>
          {" · "}
          <button type="button" className={`${styles.button} ${styles.secondary} ${styles.small}`} onClick={() => setCancelled(true)}>
            Stay on this page
          </button>
        </>
      )}
    </p>
  );
}

/** The order's live status: one region, fixed minimum height, announced politely. */
export function StatusPanel({ order, timeLeft, stale }: { order: PublicOrder; timeLeft: number | null; stale: boolean }) {
  const asset = `${order.currency} on ${order.blockchain.name}`;
  const received = order.amount_received !== "0";
  let dot = styles.dotWaiting;
  let title: string;
  let body: React.ReactNode;

  switch (order.status) {
    case "processing":
      dot = styles.dotSeen;
      title = "Payment seen";
      body = (
        <>
          <p className={styles.statusText} data-testid="confirmations">
            {Math.min(order.confirmations, order.confirmation_threshold)} of {order.confirmation_threshold} confirmations. This page updates
            by itself; you can keep it open or close it.
          </p>
          <Progress value={order.confirmations} max={order.confirmation_threshold} />
          <TransactionLine order={order} />
        </>
      );
      break;
    case "confirmed":
      dot = styles.dotOk;
      title = "Payment confirmed";
      body = (
        <>
          <p className={styles.statusText}>
            {order.amount_received} {order.currency} received by {order.shop_name || "the shop"}. Thank you!
          </p>
          <Progress value={order.confirmation_threshold} max={order.confirmation_threshold} done />
          <TransactionLine order={order} />
          {order.redirect_url && <Redirect url={order.redirect_url} shopName={order.shop_name} />}
        </>
      );
      break;
    case "expired":
      dot = styles.dotBad;
      title = "This payment request has expired";
      body = (
        <>
          <p className={styles.statusText}>No payment arrived before the deadline, and nothing was charged.</p>
          <p className={styles.statusText}>
            <strong>Do not send funds to this address now.</strong> Go back to {order.shop_name || "the shop"} and start a new payment.
          </p>
        </>
      );
      break;
    case "failed":
      dot = styles.dotBad;
      if (order.failure_reason === "underpaid") {
        title = "Payment incomplete";
        body = (
          <>
            <p className={styles.statusText} data-testid="underpaid">
              Only {order.amount_received} {order.currency} of {order.amount} {order.currency} arrived before the deadline;{" "}
              <strong>
                {order.amount_missing} {order.currency}
              </strong>{" "}
              is missing.
            </p>
            <p className={styles.statusText}>
              Do not send more to this address. Contact {order.shop_name || "the shop"} with order {order.order_id} to have the amount you
              sent refunded or the order completed.
            </p>
            <TransactionLine order={order} />
          </>
        );
      } else if (order.failure_reason === "late_payment") {
        title = "Payment arrived too late";
        body = (
          <>
            <p className={styles.statusText}>Your payment reached this address after the payment window had closed.</p>
            <p className={styles.statusText}>
              Contact {order.shop_name || "the shop"} with order {order.order_id} to sort it out; do not send anything else.
            </p>
            <TransactionLine order={order} />
          </>
        );
      } else {
        title = "Payment failed";
        body = (
          <>
            <p className={styles.statusText}>The transaction failed on the blockchain (it was reverted), so no funds moved.</p>
            <p className={styles.statusText}>Go back to {order.shop_name || "the shop"} and start a new payment.</p>
            <TransactionLine order={order} />
          </>
        );
      }
      break;
    default: {
      const timeUp = timeLeft !== null && timeLeft <= 0;
      title = timeUp ? "Time is up" : received ? "Partial payment received" : "Waiting for payment";
      body = timeUp ? (
        <p className={styles.statusText}>Checking for a payment that arrived at the last moment…</p>
      ) : received ? (
        <p className={styles.statusText} data-testid="partial">
          {order.amount_received} {order.currency} of {order.amount} {order.currency} arrived. Send the remaining{" "}
          <strong>
            {order.amount_missing} {order.currency}
          </strong>{" "}
          to the same address.
        </p>
      ) : (
        <p className={styles.statusText}>
          Send exactly{" "}
          <strong>
            {order.amount} {asset}
          </strong>{" "}
          to the address below, scan the QR code with your wallet app, or pay with a browser wallet. This page updates when the payment is seen.
        </p>
      );
    }
  }

  return (
    <section className={`${styles.card} ${styles.status}`} aria-labelledby="status-title" data-status={order.status} data-testid="status">
      <h2 id="status-title" className={styles.statusTitle}>
        <span className={`${styles.dot} ${dot}`} aria-hidden="true" />
        {title}
      </h2>
      <div role="status">{body}</div>
      <p className={styles.hint} aria-live="polite">
        {stale ? "Connection problem: retrying…" : ""}
      </p>
    </section>
  );
}
