import type { StoreLook } from "@/lib/branding/branding";
import styles from "./store-brand.module.css";

/**
 * The store's own look above a customer page (payment, receipt, link): its logo and a bar in its
 * accent colour, and the colour as `--brand-accent` for the page's primary buttons. Nothing when the
 * store set neither.
 */
export function StoreBrand({ look }: { look: StoreLook | null }) {
  if (!look || (!look.logoUrl && !look.accentColor)) return null;
  return (
    <div
      className={styles.brand}
      style={look.accentColor ? ({ "--brand-accent": look.accentColor } as React.CSSProperties) : undefined}
      data-testid="store-brand"
    >
      {look.logoUrl && (
        // eslint-disable-next-line @next/next/no-img-element -- the store's PNG, re-encoded on upload, served by this app
        <img className={styles.logo} src={look.logoUrl} alt={look.name} />
      )}
    </div>
  );
}
