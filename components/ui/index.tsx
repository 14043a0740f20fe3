import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from "react";
import styles from "./ui.module.css";

type Variant = "primary" | "secondary" | "danger";

export function buttonClass(variant: Variant = "primary", small = false): string {
  return [styles.button, variant === "secondary" && styles.secondary, variant === "danger" && styles.danger, small && styles.small].filter(Boolean).join(" ");
}

export function Button({
  variant = "primary",
  small = false,
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; small?: boolean }) {
  return <button {...props} className={[buttonClass(variant, small), className].filter(Boolean).join(" ")} />;
}

export function LinkButton({
  variant = "secondary",
  small = false,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: Variant; small?: boolean }) {
  return <a {...props} className={buttonClass(variant, small)} />;
}

export function Card({ title, children, headingLevel = 2 }: { title?: string; children: ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className={styles.card} aria-label={title}>
      {title ? <Heading style={{ marginTop: 0 }}>{title}</Heading> : null}
      {children}
    </section>
  );
}

const badgeClasses: Record<string, string | undefined> = {
  confirmed: styles.b_confirmed,
  succeeded: styles.b_succeeded,
  ok: styles.b_ok,
  active: styles.b_ok,
  pending: styles.b_pending,
  processing: styles.b_processing,
  submitted: styles.b_submitted,
  failed: styles.b_failed,
  expired: styles.b_expired,
  revoked: styles.b_revoked,
  dropped: styles.b_dropped,
  invalid: styles.b_failed,
  at_risk: styles.b_failed,
};

export function Badge({ status, children }: { status: string; children?: ReactNode }) {
  return <span className={`${styles.badge} ${badgeClasses[status] ?? styles.b_other}`}>{children ?? status}</span>;
}

export function Alert({ kind, children }: { kind: "error" | "ok" | "warn"; children: ReactNode }) {
  const cls = kind === "error" ? styles.alertError : kind === "ok" ? styles.alertOk : styles.alertWarn;
  return (
    <div role={kind === "error" ? "alert" : "status"} className={`${styles.alert} ${cls}`}>
      {children}
    </div>
  );
}

export function DescriptionList({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className={styles.dl}>
      {items.map(([term, value]) => (
        <div key={term} style={{ display: "contents" }}>
          <dt>{term}</dt>
          <dd>{value ?? "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Row({ children }: { children: ReactNode }) {
  return <div className={styles.row}>{children}</div>;
}

export function Hint({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <span className={styles.hint} id={id}>
      {children}
    </span>
  );
}

/** A static (non-action) labelled input, e.g. for GET filter forms. */
export function PlainField({ label, name, children }: { label: string; name: string; children?: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={`f-${name}`}>{label}</label>
      {children}
    </div>
  );
}

export { styles as uiStyles };
