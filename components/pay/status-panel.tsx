"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense } from "react";
import type { CheckoutView } from "@/lib/orders/checkout-view";
import type { PublicOrder } from "@/lib/orders/schemas";
import { OpenInWalletApp } from "./wallet-pay";
import styles from "./pay.module.css";

// The receipt link and the way back to the shop exist only once the order is settled: a separate chunk, out of an open order's first load.
const ReturnToShop = lazy(() => import("./return-to-shop"));

function shortHash(hash: string): string {
  return `${hash.slice(0, 10)}…${hash.slice(-8)}`;
}

function TransactionLine({ order }: { order: PublicOrder }) {
  const t = useTranslations("status");
  if (!order.transaction_hash) return null;
  return (
    <p className={styles.statusText}>
      {t("transaction")}{" "}
      {order.transaction_url ? (
        <a className={`${styles.link} ${styles.mono}`} href={order.transaction_url} target="_blank" rel="noreferrer noopener">
          {shortHash(order.transaction_hash)}
          <span className={styles.visuallyHidden}> {t("opensExplorer")}</span>
        </a>
      ) : (
        <code className={styles.mono} data-testid="tx-hash" title={order.transaction_hash}>
          {shortHash(order.transaction_hash)}
        </code>
      )}
    </p>
  );
}

function HashLink({ hash, url, testId }: { hash: string; url: string | null; testId?: string }) {
  const t = useTranslations("status");
  return url ? (
    <a className={`${styles.link} ${styles.mono}`} href={url} target="_blank" rel="noreferrer noopener" data-testid={testId}>
      {shortHash(hash)}
      <span className={styles.visuallyHidden}> {t("opensExplorer")}</span>
    </a>
  ) : (
    <code className={styles.mono} data-testid={testId} title={hash}>
      {shortHash(hash)}
    </code>
  );
}

/** What arrived but did not pay the order (late, another token), or was reversed: what happened, what next, and the transactions. */
function Notice({ notice }: { notice: NonNullable<CheckoutView["notice"]> }) {
  const t = useTranslations("status");
  return (
    <div data-testid="payment-notice" data-tone={notice.tone}>
      {notice.lines.map((line, i) => (
        <p key={i} className={styles.statusText}>
          {line}
        </p>
      ))}
      {notice.transactions.map((tx) => (
        <p key={tx.hash} className={styles.statusText}>
          {t("transaction")} <HashLink hash={tx.hash} url={tx.url} testId="notice-tx" />
        </p>
      ))}
    </div>
  );
}

function Progress({ value, max, done }: { value: number; max: number; done?: boolean }) {
  const t = useTranslations("status");
  const shown = Math.min(value, max);
  return (
    <div className={styles.progress} role="progressbar" aria-label={t("confirmationsLabel")} aria-valuemin={0} aria-valuemax={max} aria-valuenow={shown}>
      <div className={`${styles.progressBar} ${done ? styles.progressOk : ""}`} style={{ width: `${max > 0 ? (shown / max) * 100 : 100}%` }} />
    </div>
  );
}

/** What arrived of an open order: a bar and the figures (the rest of the page asks for the remainder). */
function PartialProgress({ progress, currency }: { progress: NonNullable<CheckoutView["progress"]>; currency: string }) {
  const t = useTranslations("status");
  return (
    <>
      <p className={styles.statusText} data-testid="partial">
        {t("partial", { received: progress.received, total: progress.total, currency })}
      </p>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label={t("amountReceivedLabel")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.percent}
      >
        <div className={styles.progressBar} style={{ width: `${progress.percent}%` }} />
      </div>
    </>
  );
}

/**
 * The order's live status: one region, fixed minimum height, announced politely. For confirmed,
 * expired and failed orders it is the result panel (what happened, what to do next, the way back
 * to the shop), and the page shows no QR code, address or wallet beside it (lib/orders/checkout-view.ts).
 */
export function StatusPanel({ order, view, timeUp, stale }: { order: PublicOrder; view: CheckoutView; timeUp: boolean; stale: boolean }) {
  const t = useTranslations("status");
  let dot = styles.dotWaiting;
  let title: string;
  let body: React.ReactNode;

  if (view.result) {
    const { result } = view;
    dot = result.tone === "ok" ? styles.dotOk : styles.dotBad;
    title = result.title;
    // A confirmed payment the network reversed is not shown as done (no full confirmations bar, no automatic return).
    const confirmed = order.status === "confirmed" && !order.payment_reversed;
    body = (
      <>
        {result.lines.map((line, i) => (
          <p key={i} className={styles.statusText} data-testid={i === 0 && order.failure_reason === "underpaid" ? "underpaid" : undefined}>
            {line}
          </p>
        ))}
        {confirmed && <Progress value={order.confirmation_threshold} max={order.confirmation_threshold} done />}
        <TransactionLine order={order} />
        {view.notice && <Notice notice={view.notice} />}
        {(result.receipt || result.returnTo) && (
          <Suspense fallback={null}>
            <ReturnToShop receipt={result.receipt} to={result.returnTo} shopName={order.shop_name} automatic={confirmed} />
          </Suspense>
        )}
      </>
    );
  } else if (view.panel === "processing") {
    dot = styles.dotSeen;
    title = t("seenTitle");
    body = (
      <>
        <p className={styles.statusText} data-testid="confirmations">
          {t("confirmations", { count: Math.min(order.confirmations, order.confirmation_threshold), threshold: order.confirmation_threshold })}
        </p>
        <Progress value={order.confirmations} max={order.confirmation_threshold} />
        <TransactionLine order={order} />
        {view.notice && <Notice notice={view.notice} />}
      </>
    );
  } else {
    const reversed = order.payment_reversed && order.status === "pending";
    if (reversed) dot = styles.dotBad;
    title = reversed ? t("reversedTitle") : timeUp ? t("timeUpTitle") : view.progress ? t("partialTitle") : t("waitingTitle");
    const main = timeUp ? (
      <p className={styles.statusText}>{t("lastMoment")}</p>
    ) : view.progress ? (
      <PartialProgress progress={view.progress} currency={order.currency} />
    ) : (
      <p className={styles.statusText}>
        {t.rich("instructions", { currency: order.currency, network: order.blockchain.name, strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
    );
    body = (
      <>
        {view.notice && <Notice notice={view.notice} />}
        {main}
        {view.due && !timeUp && <OpenInWalletApp due={view.due} currency={order.currency} />}
      </>
    );
  }

  return (
    <section
      className={`${styles.card} ${styles.status}`}
      aria-labelledby="status-title"
      data-status={order.status}
      data-panel={view.panel}
      data-testid="status"
    >
      <h2 id="status-title" className={styles.statusTitle}>
        <span className={`${styles.dot} ${dot}`} aria-hidden="true" />
        {title}
      </h2>
      <div role="status">{body}</div>
      <p className={styles.hint} aria-live="polite">
        {stale ? t("stale") : ""}
      </p>
    </section>
  );
}
