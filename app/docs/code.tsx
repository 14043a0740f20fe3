import { CopyButton } from "@/components/ui/copy-button";
import { docsBaseUrl, withBaseUrl } from "./base-url";
import styles from "./docs.module.css";

/**
 * A code sample with a copy button; `children` is the text as it should appear, written with
 * http://localhost:3000, which is shown (and copied) as this instance's own base URL so the
 * example runs as written.
 */
export async function Code({ children, label }: { children: string; label?: string }) {
  const text = withBaseUrl(children.replace(/^\n/, "").replace(/\s+$/, ""), await docsBaseUrl());
  return (
    <div className={styles.codeBlock}>
      {/* Focusable: a long line scrolls sideways, and keyboard users must be able to scroll it too. */}
      <pre aria-label={label} tabIndex={0}>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={label ? `Copy: ${label}` : "Copy code"} className={styles.copyButton}>
        Copy
      </CopyButton>
    </div>
  );
}

/** This instance's base URL inline in prose, as `<code>`. */
export async function BaseUrl() {
  return <code>{await docsBaseUrl()}</code>;
}

export function Note({ children }: { children: React.ReactNode }) {
  return <div className={styles.note}>{children}</div>;
}

export { styles };
