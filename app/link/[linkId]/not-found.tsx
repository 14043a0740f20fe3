import styles from "@/components/pay/pay.module.css";

/** Unknown, closed or deleted payment link. */
export default function LinkNotFound() {
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>This payment link is not available</h1>
      <p>It may have been closed by the shop, or the address is mistyped. Check the link the shop gave you, or contact the shop.</p>
    </main>
  );
}
