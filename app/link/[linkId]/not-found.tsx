import { getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

/** Unknown, closed or deleted payment link. */
export default async function LinkNotFound() {
  const t = await getTranslations("link");
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
    </main>
  );
}
