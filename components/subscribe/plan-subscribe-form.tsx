"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { browserWallet } from "@/components/pay/browser-wallet";
import styles from "@/components/pay/pay.module.css";
import form from "./plan-subscribe-form.module.css";
import { walletFailure } from "./customer-wallet";

type Answer = { data?: { id: string; subscribe_url: string }; error?: { code?: string; details?: Record<string, string[]> } } | null;

/**
 * The plan page's form: the customer's wallet (typed, pasted, or read from their browser wallet) and
 * optionally their mail address; the gateway makes their own subscription to the plan and the
 * customer continues on its hosted page, where that wallet signs.
 */
export function PlanSubscribeForm({ planId, network }: { planId: string; network: string }) {
  const t = useTranslations("subscribe");
  const router = useRouter();
  const [address, setAddress] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const fillFromWallet = async () => {
    const provider = browserWallet();
    setError(null);
    // A plain button, as on the payment page: without a browser wallet it says so.
    if (!provider) {
      setError(t("noBrowserWallet"));
      return;
    }
    try {
      const [account] = (await provider.request({ method: "eth_requestAccounts" })) as string[];
      if (account) setAddress(account);
    } catch (e) {
      setError(walletFailure(e) === "cancelled" ? t("cancelled") : t("failed"));
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const email = String(fields.get("customer_email") ?? "").trim();
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/hosted-plans/${encodeURIComponent(planId)}/subscriptions/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customer_address: address.trim(), ...(email ? { customer_email: email } : {}) }),
      });
      const body = (await response.json().catch(() => null)) as Answer;
      if (response.ok && body?.data) {
        router.push(`/subscribe/${encodeURIComponent(body.data.id)}`);
        return;
      }
      const code = body?.error?.code;
      const details = body?.error?.details ?? {};
      setError(
        details.customer_address
          ? t("badAddress")
          : details.customer_email
            ? t("badEmail")
            : code === "RATE_LIMITED"
              ? t("tooMany")
              : code === "CONFLICT" || code === "NOT_FOUND"
                ? t("planClosed")
                : code === "WALLET_NOT_CONFIGURED" || code === "INVALID_BLOCKCHAIN"
                  ? t("planUnavailable")
                  : t("failed"),
      );
    } catch {
      setError(t("failed"));
    }
    setBusy(false);
  };

  return (
    <form className={`${styles.card} ${styles.wallet}`} onSubmit={submit} aria-labelledby="start-title">
      <h2 id="start-title" className={styles.sectionTitle}>
        {t("startTitle")}
      </h2>
      <p>{t("startText", { network })}</p>
      <div className={form.field}>
        <label htmlFor="customer-address" className={form.label}>
          {t("walletAddress")}
        </label>
        <input
          id="customer-address"
          name="customer_address"
          className={`${form.input} ${styles.mono}`}
          required
          pattern="^0x[0-9a-fA-F]{40}$"
          maxLength={42}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="0x…"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          aria-describedby="customer-address-hint"
        />
        <p id="customer-address-hint" className={styles.hint}>
          {t("walletAddressHint")}
        </p>
        <p className={styles.row}>
          <button type="button" className={`${styles.button} ${styles.secondary} ${styles.small}`} onClick={fillFromWallet} disabled={busy}>
            {t("useBrowserWallet")}
          </button>
        </p>
      </div>
      <div className={form.field}>
        <label htmlFor="customer-email" className={form.label}>
          {t("emailOptional")}
        </label>
        <input
          id="customer-email"
          name="customer_email"
          type="email"
          className={form.input}
          autoComplete="email"
          maxLength={254}
          aria-describedby="customer-email-hint"
        />
        <p id="customer-email-hint" className={styles.hint}>
          {t("emailHint")}
        </p>
      </div>
      <p className={`${styles.row} ${form.actions}`}>
        <button type="submit" className={styles.button} disabled={busy}>
          {t("continue")}
        </button>
      </p>
      <p className={styles.hint} role="status" aria-live="polite">
        {busy ? t("starting") : ""}
      </p>
      {error && (
        <p role="alert" className={styles.error} data-testid="plan-error">
          {error}
        </p>
      )}
    </form>
  );
}
