import { getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

/** Unknown or malformed order id. */
export default async function PaymentNotFound() {
  const t = await getTranslations("pay");
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
    </main>
  );
}
