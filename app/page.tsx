import Link from "next/link";
import styles from "./home.module.css";

/** The landing page: what the gateway does in three steps, and the ways in. */
export default function HomePage() {
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1>Payment Gateway</h1>
      <p className={styles.lead}>
        Accept crypto payments on Ethereum, Base, Polygon, Arbitrum and Optimism. Customers pay straight into your own wallet; we never hold the money.
      </p>
      <ol className={styles.steps}>
        <li className={styles.step}>
          <h2>Connect your wallet</h2>
          <p>Sign up and add the address you want to be paid to, on each network you accept.</p>
        </li>
        <li className={styles.step}>
          <h2>Create an order</h2>
          <p>From your shop over the REST API, or as a payment link you share. Price it in a token or in your own currency.</p>
        </li>
        <li className={styles.step}>
          <h2>Get paid</h2>
          <p>Your customer pays on a hosted page by QR code or wallet; a signed webhook tells your shop once the payment is confirmed.</p>
        </li>
      </ol>
      <nav className={styles.actions} aria-label="Get started">
        <Link className={styles.primary} href="/sign-up">
          Sign up
        </Link>
        <Link className={styles.secondary} href="/sign-in">
          Sign in
        </Link>
        <Link className={styles.secondary} href="/docs">
          Docs
        </Link>
      </nav>
    </main>
  );
}
