"use client";

import { useState } from "react";
import { Button } from "./index";

/** Copies `text` to the clipboard and says so (politely, for screen readers). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        small
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          } catch {
            setCopied(false);
          }
        }}
      >
        {copied ? "Copied" : label}
      </Button>
      <span aria-live="polite" className="visually-hidden">
        {copied ? "Copied to clipboard" : ""}
      </span>
    </>
  );
}
