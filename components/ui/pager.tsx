import { useTranslations } from "next-intl";
import styles from "./ui.module.css";

/** "← Previous · Page n of m · Next →" under a list; `href(page)` keeps the list's filters in the link. */
export function Pager({ page, lastPage, href }: { page: number; lastPage: number; href: (page: number) => string }) {
  const t = useTranslations("dashboard.ui");
  return (
    <nav className={styles.pager} aria-label={t("pages")}>
      {page > 1 ? <a href={href(page - 1)}>← {t("previous")}</a> : null}
      <span>{t("pageOf", { page: Math.min(page, lastPage), last: lastPage })}</span>
      {page < lastPage ? <a href={href(page + 1)}>{t("next")} →</a> : null}
    </nav>
  );
}
