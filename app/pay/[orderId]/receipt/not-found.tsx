import { getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

/** Unknown order, or one not confirmed (yet): no receipt. */
export default async function ReceiptNotFound() {
  const t = await getTranslations("receipt");
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
    </main>
  );
}
