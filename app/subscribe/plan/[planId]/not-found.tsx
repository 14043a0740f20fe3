import { getTranslations } from "next-intl/server";
import styles from "@/components/pay/pay.module.css";

/** Unknown plan id, or a plan whose public link is off. */
export default async function PlanNotFound() {
  const t = await getTranslations("subscribe");
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{t("planNotFoundTitle")}</h1>
      <p>{t("planNotFoundBody")}</p>
    </main>
  );
}
