import { getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

/** Unknown subscription id. */
export default async function SubscriptionNotFound() {
  const t = await getTranslations("subscribe");
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
    </main>
  );
}
