import styles from "./docs.module.css";

/** A code sample; `children` is the text as it should appear. */
export function Code({ children, label }: { children: string; label?: string }) {
  return (
    <pre aria-label={label}>
      <code>{children.replace(/^\n/, "").replace(/\s+$/, "")}</code>
    </pre>
  );
}

export function Note({ children }: { children: React.ReactNode }) {
  return <div className={styles.note}>{children}</div>;
}

export { styles };
