import styles from "@/components/pay/pay.module.css";
import { receiptText } from "@/components/pay/receipt-view";

/** Unknown order, or one not confirmed (yet): no receipt. */
export default function ReceiptNotFound() {
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{receiptText.notFoundTitle}</h1>
      <p>{receiptText.notFoundBody}</p>
    </main>
  );
}
