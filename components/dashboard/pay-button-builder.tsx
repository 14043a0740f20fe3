"use client";

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
  const id = useId();
  const [linkId, setLinkId] = useState(links[0]?.id ?? "");
  const [label, setLabel] = useState<string>(defaultPayButton.label);
  const [background, setBackground] = useState<string>(defaultPayButton.background);
  const [color, setColor] = useState<string>(defaultPayButton.color);
  const link = links.find((l) => l.id === linkId) ?? links[0];
  if (!link) return <p>Create a payment link first: the button opens its checkout.</p>;
  const snippet = payButtonSnippet({ url: link.url, label, background, color });
  const contrast = contrastRatio(background, color);
  return (
    <div>
      <div className={styles.payButtonFields}>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-link`}>Payment link</label>
          <select id={`${id}-link`} value={link.id} onChange={(event) => setLinkId(event.currentTarget.value)}>
            {links.map((l) => (
              <option key={l.id} value={l.id}>
                {l.title}
              </option>
            ))}
          </select>
        </div>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-label`}>Button text</label>
          <input id={`${id}-label`} value={label} maxLength={40} onChange={(event) => setLabel(event.currentTarget.value)} />
        </div>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-bg`}>Button colour</label>
          <input id={`${id}-bg`} type="color" value={background} onChange={(event) => setBackground(event.currentTarget.value)} />
        </div>
        <div className={uiStyles.field}>
          <label htmlFor={`${id}-fg`}>Text colour</label>
          <input id={`${id}-fg`} type="color" value={color} onChange={(event) => setColor(event.currentTarget.value)} />
        </div>
      </div>
      {contrast < 4.5 ? (
        <p className={uiStyles.hint} role="status">
          The text is hard to read on this colour (contrast {contrast.toFixed(1)}:1; aim for 4.5:1 or more).
        </p>
      ) : null}
      <p>
        {/* The preview is the snippet itself (escaped label, checked colours and URL: lib/dashboard/pay-button.ts). */}
        Preview: <span data-testid="pay-button-preview" dangerouslySetInnerHTML={{ __html: snippet }} />
      </p>
      <label htmlFor={`${id}-snippet`}>HTML to paste into your site</label>
      <textarea id={`${id}-snippet`} className={styles.snippet} readOnly rows={4} value={snippet} />
      <p>
        <CopyButton text={snippet} label="Copy button HTML" /> <a href="/docs/pay-button">How the pay button works</a>
      </p>
    </div>
  );
}
