"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { LinkButton } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import styles from "./dashboard.module.css";

/**
 * What a create form ends with: what was made, its page to open, its link to copy and a QR code of
 * the link (an SVG made on the server with the pay page's `qrcode` use) for a customer in front of you.
 */
export function CreatedCard({
  testId,
  heading,
  url,
  openLabel,
  qrSvg,
  children,
}: {
  testId: string;
  heading: ReactNode;
  url: string;
  openLabel: string;
  qrSvg: string;
  children?: ReactNode;
}) {
  const t = useTranslations("dashboard.shared");
  return (
    <section className={styles.createdCard} data-testid={testId} aria-live="polite">
      <div>
        <p className={styles.createdHeading}>{heading}</p>
        {children}
        <p className={`mono ${styles.wrapAnywhere}`}>{url}</p>
        <p className={styles.createdActions}>
          <LinkButton href={url} target="_blank" rel="noreferrer" variant="primary">
            {openLabel}
          </LinkButton>
          <CopyButton
            text={url}
            label={t("created.copy")}
            words={{ copied: t("copy.copied"), copiedStatus: t("copy.copiedStatus"), failed: t("copy.failed") }}
          />
        </p>
      </div>
      {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URL: nothing for next/image to optimise */}
      <img
        className={styles.createdQr}
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
        alt={t("created.qr", { url })}
        width={160}
        height={160}
      />
    </section>
  );
}
