"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import styles from "./pay.module.css";

/** The payment page's optional address for the receipt: PUT /api/pay/{order_id}/receipt-email/. */
export function ReceiptEmailForm({ orderId }: { orderId: string }) {
  const t = useTranslations("pay");
  const errorWords = useTranslations("errors");
  // The receipt and refund notices are written in the language the page is shown in.
  const locale = useLocale();
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Read from the field, not from state: an address typed before the page hydrated is in the field only.
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setError(null);
    try {
      const res = await fetch(`/api/pay/${orderId}/receipt-email/`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, locale }),
      });
      const body = await res.json();
      if (res.ok) setSaved(body.data.email);
      else setError(body?.error?.details?.email?.[0] ?? errorWords("somethingWrong"));
    } catch {
      setError(errorWords("somethingWrong"));
    }
  }

  if (saved)
    return (
      <p className={`${styles.card} ${styles.notice}`} role="status">
        {t("receiptEmailSaved", { email: saved })}
      </p>
    );
  return (
    <form className={styles.card} onSubmit={submit} aria-label={t("receiptEmailLabel")}>
      <label htmlFor="receipt-email" className={styles.sectionTitle}>
        {t("receiptEmailLabel")}
      </label>
      <div className={styles.row}>
        <input id="receipt-email" type="email" autoComplete="email" required maxLength={254} name="email" aria-describedby="receipt-email-hint" />
        <button type="submit" className={`${styles.button} ${styles.secondary} ${styles.small}`}>
          {t("receiptEmailSave")}
        </button>
      </div>
      <p id="receipt-email-hint" className={styles.hint}>
        {t("receiptEmailHint")}
      </p>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </form>
  );
}
