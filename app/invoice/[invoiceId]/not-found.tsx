import { getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

/** Unknown invoice, or a draft. */
export default async function InvoiceNotFound() {
  const t = await getTranslations("invoice");
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
    </main>
  );
}
