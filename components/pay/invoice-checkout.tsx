"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { customerErrorMessage } from "@/lib/http/error-wording";
import styles from "./pay.module.css";
import linkStyles from "./link-checkout.module.css";
import { MethodTiles } from "./method-tiles";
import invoiceStyles from "./invoice-checkout.module.css";
import type { LinkMethod } from "./link-checkout";

export interface InvoicePayView {
  id: string;
  number: string;
  currency: string;
  amount_due: string;
  allow_partial_payments: boolean;
  shop_name: string;
}

/** Method tiles and (where the store allows it) an amount; then POST /api/hosted-invoices/{id}/orders/ and on to the hosted payment page. */
export function InvoiceCheckout({ invoice, methods }: { invoice: InvoicePayView; methods: LinkMethod[] }) {
  const t = useTranslations("invoice");
  const errorWords = useTranslations("errors");
  // The page's language: the invoice's further mail is written in it, unless the store chose the client's.
  const locale = useLocale();
  const [choice, setChoice] = useState(0);
  const [amount, setAmount] = useState(invoice.amount_due);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const method = methods[choice];

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!method) return;
    setPending(true);
    setError(null);
    try {
      const part = invoice.allow_partial_payments && amount.trim() !== invoice.amount_due ? { amount: amount.trim() } : {};
      const res = await fetch(`/api/hosted-invoices/${invoice.id}/orders/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ blockchain: method.blockchain, currency: method.currency, locale, ...part }),
      });
      const body = await res.json();
      if (res.ok && body?.data?.payment_url) {
        window.location.assign(new URL(body.data.payment_url, window.location.href).pathname);
        return;
      }
      const fieldError: string | undefined = body?.error?.details?.amount?.[0];
      setError(fieldError ?? customerErrorMessage(body?.error?.code, { shopName: invoice.shop_name }, errorWords));
    } catch {
      setError(t("offline"));
    }
    setPending(false);
  }

  if (methods.length === 0) {
    return (
      <p className={`${styles.card} ${styles.notice}`} role="note">
        {t("noMethods", { shop: invoice.shop_name })}
      </p>
    );
  }
  return (
    <form onSubmit={submit} aria-label={t("payTitle")} className={styles.card}>
      <MethodTiles methods={methods} choice={choice} onChoose={setChoice} legend={t("payWith")} onNetwork={(m) => t("onNetwork", { network: m.network })} />
      {invoice.allow_partial_payments && (
        <div className={invoiceStyles.amount}>
          <label htmlFor="invoice-amount" className={styles.sectionTitle}>
            {t("payAmount", { currency: invoice.currency })}
          </label>
          <input
            id="invoice-amount"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            aria-describedby="invoice-amount-hint"
            onChange={(e) => setAmount(e.target.value)}
          />
          <p id="invoice-amount-hint" className={styles.hint}>
            {t("payAmountHint", { due: `${invoice.amount_due} ${invoice.currency}` })}
          </p>
        </div>
      )}
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <button type="submit" className={`${styles.button} ${linkStyles.submit}`} disabled={pending} data-brand-button>
        {pending ? t("pending") : t("submit")}
      </button>
    </form>
  );
}
