"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import styles from "./pay.module.css";

/** Seconds the confirmed notice stays before sending the customer back to the shop. */
export const redirectDelaySeconds = 5;

/** The destination's host, shown before the automatic return so the customer sees where they go; null for anything but http(s). */
function destinationHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.host : null;
  } catch {
    return null;
  }
}

function ReturnLink({ to }: { to: { url: string; label: string } }) {
  if (!destinationHost(to.url)) return null;
  return (
    <p className={styles.statusText}>
      <a className={`${styles.button} ${styles.secondary} ${styles.small}`} href={to.url}>
        {to.label}
      </a>
    </p>
  );
}

/** After confirmation: back to the shop after a visible delay, which the customer can cut short or cancel. */
function Redirect({ url, label, shopName }: { url: string; label: string; shopName: string }) {
  const t = useTranslations("status");
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
      {cancelled ? t("returnCancelled") : t("returning", { shop: shopName || t("theShop"), host, seconds: Math.max(left, 0) })}{" "}
      <a className={styles.link} href={url}>
        {t("returnNow", { label })}
      </a>
      {!cancelled && (
        <>
          {" · "}
          <button type="button" className={`${styles.button} ${styles.secondary} ${styles.small}`} onClick={() => setCancelled(true)}>
            {t("stay")}
          </button>
        </>
      )}
    </p>
  );
}

/**
 * A settled order's ways on: the confirmed order's receipt, and "Return to {shop}" (after
 * confirmation automatically after a visible delay, else a plain link).
 */
export default function ReturnToShop({
  receipt,
  to,
  shopName,
  automatic,
}: {
  receipt: string | null;
  to: { url: string; label: string } | null;
  shopName: string;
  automatic: boolean;
}) {
  const t = useTranslations("status");
  return (
    <>
      {receipt && (
        <p className={styles.statusText}>
          <a className={styles.link} href={receipt} data-testid="receipt-link">
            {t("receiptLink")}
          </a>
        </p>
      )}
      {to && (automatic ? <Redirect url={to.url} label={to.label} shopName={shopName} /> : <ReturnLink to={to} />)}
    </>
  );
}
