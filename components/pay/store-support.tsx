"use client";

import { useTranslations } from "next-intl";
import styles from "./pay.module.css";
import { SupportContactLinks } from "./support-contact-links";

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
      {t("support", { shop: name })} <SupportContactLinks email={support.email} url={support.url} linkClassName={styles.supportLink} />
    </p>
  );
}
