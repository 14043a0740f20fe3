"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { customerErrorMessage } from "@/lib/http/error-wording";
import { adoptServerTexts } from "@/lib/money/display-amount";
import { linkPrice } from "@/lib/payment-links/link-price";
import styles from "./pay.module.css";
import linkStyles from "./link-checkout.module.css";
import { MethodTiles } from "./method-tiles";

export interface PublicLinkView {
  id: string;
  title: string;
  amount: string | null;
  price_amount: string | null;
  price_currency: string | null;
  options: { blockchain: string; currency: string }[];
  max_quantity: number;
  shop_name: string;
}

/** One way to pay: the link's option with its network's name for the tile. */
export interface LinkMethod {
  blockchain: string;
  currency: string;
  network: string;
}

/** Method tiles, a quantity stepper and the live total; then POST /api/links/{id}/orders/ and on to the hosted payment page. */
export function LinkCheckout({ link, methods, texts }: { link: PublicLinkView; methods: LinkMethod[]; texts: Record<string, string> }) {
  // Before the prices below: hydrating then builds no Intl formatter.
  adoptServerTexts(texts);
  const t = useTranslations("link");
  const errorWords = useTranslations("errors");
  const locale = useLocale();
  const [choice, setChoice] = useState(0);
  const [quantity, setQuantity] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const max = link.max_quantity;
  const method = methods[choice];
  const clamp = (n: number) => Math.max(1, Math.min(max, Math.trunc(n) || 1));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!method) return;
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/links/${link.id}/orders/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ blockchain: method.blockchain, currency: method.currency, quantity }),
      });
      const body = await res.json();
      if (res.ok && body?.data?.payment_url) {
        window.location.assign(new URL(body.data.payment_url, window.location.href).pathname);
        return;
      }
      // The envelope's message is written for the merchant's developers; the customer gets plain words.
      setError(customerErrorMessage(body?.error?.code, { shopName: link.shop_name }, errorWords));
    } catch {
      setError(t("offline"));
    }
    setPending(false);
  }

  const unitCurrency = method?.currency ?? methods[0]?.currency ?? "";
  return (
    <main className={styles.page} data-color-scheme="auto">
      <header className={styles.header}>
        <p className={styles.shop}>{link.shop_name}</p>
        <h1 className={styles.title}>{link.title}</h1>
        <p className={styles.network} data-testid="link-price">
          {linkPrice(link, 1, unitCurrency, locale)}
          {max > 1 ? ` ${t("each")}` : ""}
        </p>
      </header>
      {methods.length === 0 ? (
        <p className={`${styles.card} ${styles.notice}`} role="note">
          {t("noMethods", { shop: link.shop_name || t("theShop") })}
        </p>
      ) : (
        <form onSubmit={submit} aria-label={t("formLabel")} className={styles.card}>
          <MethodTiles methods={methods} choice={choice} onChoose={setChoice} legend={t("payWith")} onNetwork={(m) => t("onNetwork", { network: m.network })} />

          {max > 1 && (
            <div className={linkStyles.quantity}>
              <label htmlFor="quantity" className={styles.sectionTitle}>
                {t("quantity")}
              </label>
              <div className={linkStyles.stepper}>
                <button
                  type="button"
                  className={linkStyles.step}
                  aria-label={t("decrease")}
                  aria-controls="quantity"
                  disabled={quantity <= 1}
                  onClick={() => setQuantity(clamp(quantity - 1))}
                >
                  −
                </button>
                <input
                  id="quantity"
                  className={linkStyles.quantityInput}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={max}
                  step={1}
                  value={quantity}
                  aria-describedby="quantity-hint"
                  onChange={(e) => setQuantity(clamp(Number(e.target.value)))}
                />
                <button
                  type="button"
                  className={linkStyles.step}
                  aria-label={t("increase")}
                  aria-controls="quantity"
                  disabled={quantity >= max}
                  onClick={() => setQuantity(clamp(quantity + 1))}
                >
                  +
                </button>
              </div>
              <p id="quantity-hint" className={styles.hint}>
                {t("quantityHint", { max })}
              </p>
            </div>
          )}

          <p className={linkStyles.total}>
            <span>{t("total")}</span>
            <output data-testid="link-total" aria-live="polite">
              {linkPrice(link, quantity, unitCurrency, locale)}
            </output>
          </p>
          {link.price_amount && <p className={styles.hint}>{t("fiatHint")}</p>}
          {error && (
            <p role="alert" className={styles.error}>
              {error}
            </p>
          )}
          <button type="submit" className={`${styles.button} ${linkStyles.submit}`} disabled={pending}>
            {pending ? t("pending") : t("submit")}
          </button>
        </form>
      )}
    </main>
  );
}
