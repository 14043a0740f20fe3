import { getLocale, getTranslations } from "next-intl/server";
import { customerLocales, localeNames } from "@/lib/i18n/locales";
import styles from "./locale-switcher.module.css";

/**
 * The customer pages' language switcher: plain links (no client code) to /language/{locale},
 * which keeps the choice in a cookie and comes back to `returnTo`.
 */
export async function LocaleSwitcher({ returnTo }: { returnTo: string }) {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("language")]);
  return (
    <nav className={styles.switcher} aria-label={t("label")} data-testid="locale-switcher">
      <ul className={styles.list}>
        {customerLocales.map((code) => (
          <li key={code}>
            <a
              className={styles.link}
              href={`/language/${code}?return=${encodeURIComponent(returnTo)}`}
              hrefLang={code}
              lang={code}
              aria-current={code === locale ? "true" : undefined}
              rel="nofollow"
            >
              {localeNames[code]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
