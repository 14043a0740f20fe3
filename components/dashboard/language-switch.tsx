"use client";

import { usePathname } from "next/navigation";
import { customerLocales, localeNames, type CustomerLocale } from "@/lib/i18n/locales";
import styles from "./dashboard.module.css";

/**
 * The dashboard's language switcher: one form, a button per language posting to /language/{locale},
 * which keeps the choice on the signed-in login (and in the cookie) and comes back to this page.
 * Plain HTML: it works before the page's scripts load.
 */
export function LanguageSwitch({ current, label }: { current: CustomerLocale; label: string }) {
  const path = usePathname();
  return (
    <form method="post" className={styles.languageSwitch} aria-label={label} data-testid="dashboard-language">
      <span className={styles.languageLabel}>{label}</span>
      {customerLocales.map((code) => (
        <button key={code} type="submit" formAction={`/language/${code}?return=${encodeURIComponent(path)}`} lang={code} aria-pressed={code === current}>
          {localeNames[code]}
        </button>
      ))}
    </form>
  );
}
