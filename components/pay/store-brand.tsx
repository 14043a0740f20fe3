import { getTranslations } from "next-intl/server";
import type { StoreLook } from "@/lib/branding/branding";
import styles from "./store-brand.module.css";
import { SupportContactLinks } from "./support-contact-links";

/**
 * A customer page (payment, receipt, link) in the store's own look: its logo on a bar in its accent
 * colour above the page, the colour as `--brand-accent` for the page's primary buttons (white text
 * on it was contrast-checked when it was saved: the same in light and dark mode), and its support
 * contact below. The store's display name is the page's shop name (the order and link views read it).
 * Without a look the page is as it was.
 */
export async function StoreBrand({ look, children }: { look: StoreLook | null; children: React.ReactNode }) {
  const accent = look?.accentColor ?? null;
  const support = look && (look.supportEmail || look.supportUrl) ? look : null;
  const t = support ? await getTranslations("brand") : null;
  return (
    <div
      className={styles.scope}
      style={accent ? ({ "--brand-accent": accent, "--brand-accent-hover": `color-mix(in srgb, ${accent} 82%, #000)` } as React.CSSProperties) : undefined}
      data-testid="brand-scope"
    >
      {look && (look.logoUrl || accent) && (
        // Landmarks (banner, contentinfo) around the page's main: axe wants all content in one.
        <header className={styles.brand} data-testid="store-brand">
          {look.logoUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- the store's PNG, re-encoded on upload, served by this app
            <img className={styles.logo} src={look.logoUrl} alt={look.name} />
          )}
        </header>
      )}
      {children}
      {support && t && (
        <footer className={styles.support} data-testid="store-support">
          {t("support", { shop: support.name })} <SupportContactLinks email={support.supportEmail} url={support.supportUrl} linkClassName={styles.contact} />
        </footer>
      )}
    </div>
  );
}
