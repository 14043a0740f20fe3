"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { customerErrorMessage } from "@/lib/http/error-wording";
import { displayAmount } from "@/lib/money/display-amount";
import type { PublicOrder } from "@/lib/orders/schemas";
import styles from "./pay.module.css";
import linkStyles from "./link-checkout.module.css";

/**
 * The order's (chain, token) methods as tiles (the link page's): choosing one makes it the order's
 * (POST /api/pay/{id}/method/), and the amount, QR code and address below follow. Shown only while
 * the customer may still change: more than one method and no money arrived yet.
 */
export function MethodChoice({ order, onChanged }: { order: PublicOrder; onChanged: () => Promise<void> }) {
  const t = useTranslations("methods");
  const errorWords = useTranslations("errors");
  const locale = useLocale();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function choose(blockchain: string, currency: string) {
    setPending(true);
    setError(null);
    try {
      const response = await fetch(`/api/pay/${encodeURIComponent(order.order_id)}/method/`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ blockchain, currency }),
      });
      const body = (await response.json().catch(() => null)) as { data?: PublicOrder; error?: { code?: string } } | null;
      if (!response.ok || !body?.data)
        setError(body?.error?.code === "CONFLICT" ? t("fixed") : customerErrorMessage(body?.error?.code, { shopName: order.shop_name }, errorWords));
      // The page's order (amount, address, QR) follows the choice, or the state that refused it.
      await onChanged();
    } catch {
      setError(t("offline"));
    } finally {
      setPending(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby="method-title" data-testid="method-choice">
      <fieldset className={linkStyles.fieldset} disabled={pending} aria-describedby="method-hint">
        <legend id="method-title" className={styles.sectionTitle}>
          {t("payWith")}
        </legend>
        <div className={linkStyles.methods}>
          {order.methods.map((m) => (
            <label key={`${m.blockchain.slug}:${m.currency}`} className={linkStyles.method} data-testid="pay-method">
              <input
                className={linkStyles.methodInput}
                type="radio"
                name="pay-method"
                value={`${m.blockchain.slug}:${m.currency}`}
                checked={m.selected}
                onChange={() => void choose(m.blockchain.slug, m.currency)}
              />
              <span className={linkStyles.badge} aria-hidden="true">
                {m.currency.slice(0, 4)}
              </span>
              <span className={linkStyles.methodText}>
                <strong>
                  {displayAmount(m.amount, locale)} {m.currency}
                </strong>
                <span className={linkStyles.network}>{t("onNetwork", { network: m.blockchain.name })}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id="method-hint" className={styles.hint} aria-live="polite">
        {pending ? t("changing") : t("hint")}
      </p>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </section>
  );
}
