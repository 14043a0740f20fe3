"use client";

import { useEffect, useState } from "react";
import styles from "./pay.module.css";

/** Copies `text`; the label stays the same width ("Copy" / "Copied") and a polite live region says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <button
        type="button"
        className={`${styles.button} ${styles.secondary} ${styles.small}`}
        aria-label={label}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        {copied ? "Copied" : "Copy"}
      </button>
      <span role="status" className={styles.visuallyHidden}>
        {copied === true ? "Copied to the clipboard" : copied === false ? "Copy failed: select the text and copy it yourself" : ""}
      </span>
    </>
  );
}
