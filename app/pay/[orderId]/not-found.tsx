import styles from "@/components/pay/pay.module.css";

/** Unknown or malformed order id. */
export default function PaymentNotFound() {
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>Payment not found</h1>
      <p>
        There is no payment request at this address. Check the link the shop gave you, or go back to the shop and start the payment again.
      </p>
    </main>
  );
}
