"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { customerErrorMessage } from "@/lib/http/error-wording";
import styles from "./pay.module.css";

interface LinkOrder {
  orderId: string;
  shopName: string;
  network: string;
  currency: string;
}

/**
 * The mailed refund-address link's page (issue 52): the customer types their own address and
 * POST /api/pay/{id}/refund-link/address/ spends the link. An invalid, used or expired link says so
 * and where to ask for a new one; the store's support contact is at the page's foot (StoreBrand).
 */
export function RefundLinkForm({ order, token, valid }: { order: LinkOrder; token: string; valid: boolean }) {
  const t = useTranslations("refund");
  const errorWords = useTranslations("errors");
  const shop = order.shopName || t("theShop");
  const [address, setAddress] = useState("");
  const [state, setState] = useState<{ kind: "idle" | "busy" | "saved" | "invalid" | "error"; text?: string }>(valid ? { kind: "idle" } : { kind: "invalid" });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setState({ kind: "busy" });
    try {
      const response = await fetch(`/api/pay/${encodeURIComponent(order.orderId)}/refund-link/address/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, refund_address: address.trim() }),
      });
      const body = (await response.json().catch(() => null)) as {
        data?: { refund_address: string };
        error?: { code?: string; details?: Record<string, string[]> };
      } | null;
      if (response.ok && body?.data) setState({ kind: "saved", text: t("saved", { shop, address: body.data.refund_address }) });
      else if (body?.error?.details?.token) setState({ kind: "invalid" });
      else
        setState({
          kind: "error",
          text: body?.error?.details?.refund_address?.join(" ") ?? customerErrorMessage(body?.error?.code, { shopName: order.shopName }, errorWords),
        });
    } catch {
      setState({ kind: "error", text: errorWords("somethingWrong") });
    }
  }

  return (
    <main className={styles.page} data-color-scheme="auto">
      <header className={styles.header}>
        <h1 className={styles.title}>{t("pageTitle")}</h1>
      </header>
      <section className={styles.card} aria-labelledby="refund-link-title" data-testid="refund-link-page">
        <h2 id="refund-link-title" className={styles.sectionTitle}>
          {order.orderId}
        </h2>
        {state.kind === "invalid" ? (
          <p role="alert" className={styles.notice}>
            {t("invalidLink")}
          </p>
        ) : state.kind === "saved" ? (
          <p role="status" className={styles.notice} data-testid="refund-link-saved">
            {state.text}
          </p>
        ) : (
          <form onSubmit={submit} aria-label={t("pageTitle")}>
            <p className={styles.hint}>{t("pageIntro", { network: order.network, currency: order.currency, shop })}</p>
            <label htmlFor="refund-link-address">{t("addressLabel", { network: order.network })}</label>
            <div className={styles.row}>
              <input
                id="refund-link-address"
                className={styles.mono}
                name="refund_address"
                value={address}
                onChange={(e) => setAddress(e.target.value)}
                required
                pattern="0x[0-9a-fA-F]{40}"
                autoComplete="off"
                spellCheck={false}
                placeholder="0x…"
              />
            </div>
            <button type="submit" className={styles.button} disabled={state.kind === "busy"}>
              {state.kind === "busy" ? t("saving") : t("save")}
            </button>
            {state.kind === "error" && (
              <p role="alert" className={styles.error}>
                {state.text}
              </p>
            )}
          </form>
        )}
      </section>
      <footer className={styles.footer}>
        <a className={styles.supportLink} href={`/pay/${encodeURIComponent(order.orderId)}`}>
          {t("backToPayment")}
        </a>
      </footer>
    </main>
  );
}
