"use client";

import { useEffect, useState, type ReactNode } from "react";
import { buttonClass } from "./index";
import styles from "./ui.module.css";

export interface CopyButtonWords {
  copied: string;
  copiedStatus: string;
  failed: string;
}

const englishWords: CopyButtonWords = {
  copied: "Copied",
  copiedStatus: "Copied to the clipboard",
  failed: "Copy failed: select the text and copy it yourself",
};

/**
 * Copies `text` to the clipboard. `label` is the button's accessible name and stays the same;
 * the button shows `children` (default: `label`), then "Copied" for 2 s, and a polite status
 * region says whether it worked. `className` replaces the dashboard's small secondary button look
 * (the payment page has its own styles).
 */
export function CopyButton({
  text,
  label,
  children = label,
  className,
  words = englishWords,
}: {
  text: string;
  label: string;
  children?: ReactNode;
  className?: string;
  /** What it says once clicked (the payment page passes them in the customer's language). */
  words?: CopyButtonWords;
}) {
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
        className={className ?? buttonClass("secondary", true)}
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
        {copied ? words.copied : children}
      </button>
      <span role="status" className={styles.visuallyHidden}>
        {copied === true ? words.copiedStatus : copied === false ? words.failed : ""}
      </span>
    </>
  );
}
