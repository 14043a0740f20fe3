"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { uiStyles } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import { contrastRatio, defaultPayButton, payButtonSnippet } from "@/lib/dashboard/pay-button";
import styles from "./dashboard.module.css";

interface LinkChoice {
  id: string;
  title: string;
  url: string;
}

/** Pick a link, a label and two colours; copy the HTML of a button that opens the link's hosted checkout. */
export function PayButtonBuilder({ links }: { links: LinkChoice[] }) {
  const t = useTranslations("dashboard.shared.payButton");
  const id = useId();
  const [linkId, setLinkId] = useState(links[0]?.id ?? "");
  const [label, setLabel] = useState<string>(() => t("defaultLabel"));
  const [background, setBackground] = useState<string>(defaultPayButton.background);
  const [color, setColor] = useState<string>(defaultPayButton.color);
  const link = links.find((l) => l.id === linkId) ?? links[0];
  if (!link) return <p>{t("needLink")}</p>;
  const snippet = payButtonSnippet({ url: link.url, label, background, color });
  const contrast = contrastRatio(background, color);
  return (
    <div>
      <div className={styles.payButtonFields}>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-link`}>{t("link")}</label>
          <select id={`${id}-link`} value={link.id} onChange={(event) => setLinkId(event.currentTarget.value)}>
            {links.map((l) => (
              <option key={l.id} value={l.id}>
                {l.title}
              </option>
            ))}
          </select>
        </div>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-label`}>{t("text")}</label>
          <input id={`${id}-label`} value={label} maxLength={40} onChange={(event) => setLabel(event.currentTarget.value)} />
        </div>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-bg`}>{t("background")}</label>
          <input id={`${id}-bg`} type="color" value={background} onChange={(event) => setBackground(event.currentTarget.value)} />
        </div>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-fg`}>{t("color")}</label>
          <input id={`${id}-fg`} type="color" value={color} onChange={(event) => setColor(event.currentTarget.value)} />
        </div>
      </div>
      {contrast < 4.5 ? (
        <p className={uiStyles.hint} role="status">
          {t("lowContrast", { ratio: contrast.toFixed(1) })}
        </p>
      ) : null}
      <p>
        {/* The preview is the snippet itself (escaped label, checked colours and URL: lib/dashboard/pay-button.ts). */}
        {t("preview")} <span data-testid="pay-button-preview" dangerouslySetInnerHTML={{ __html: snippet }} />
      </p>
      <label htmlFor={`${id}-snippet`}>{t("snippet")}</label>
      <textarea id={`${id}-snippet`} className={styles.snippet} readOnly rows={4} value={snippet} />
      <p>
        <CopyButton text={snippet} label={t("copy")} /> <a href="/docs/pay-button">{t("docs")}</a>
      </p>
    </div>
  );
}
