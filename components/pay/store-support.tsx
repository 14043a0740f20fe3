"use client";

import { useTranslations } from "next-intl";
import styles from "./pay.module.css";

/** The store's support contact (its branding), or nothing when it set none. */
export interface StoreSupportContact {
  email: string | null;
  url: string | null;
}

/** "Questions? Contact <store>: e-mail · help page", on the customer's pages (issue 52: a customer who cannot sign reaches the store). */
export function StoreSupport({ shop, support, className }: { shop: string; support: StoreSupportContact | null; className?: string }) {
  const t = useTranslations("refund");
  if (!support || (!support.email && !support.url)) return null;
  const name = shop || t("theShop");
  return (
    <p className={className ?? styles.hint} data-testid="store-support">
      {t("support", { shop: name })}{" "}
      {support.email && (
        <a href={`mailto:${support.email}`} aria-label={t("supportEmailLabel", { shop: name })} className={styles.supportLink}>
          {support.email}
        </a>
      )}
      {support.email && support.url && " · "}
      {support.url && (
        <a href={support.url} target="_blank" rel="noopener noreferrer" aria-label={t("supportUrlLabel", { shop: name })} className={styles.supportLink}>
          {support.url.replace(/^https?:\/\//, "")}
        </a>
      )}
    </p>
  );
}
