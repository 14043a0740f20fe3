import type { Metadata } from "next";
import styles from "@/components/pay/pay.module.css";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false, follow: false }, referrer: "no-referrer" };

// GET /unsubscribe?token=… – the link in a store's customer mail: a button, so that link scanners opening it unsubscribe no one
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token, done } = await searchParams;
  return (
    <main className={styles.page} data-color-scheme="auto">
      <h1 className={styles.title}>{done ? "You are unsubscribed" : "Unsubscribe"}</h1>
      {done ? (
        <p>This store will not e-mail you invoices, reminders, receipts or refund notices any more.</p>
      ) : typeof token === "string" ? (
        <form method="post" action={`/unsubscribe/confirm?token=${encodeURIComponent(token)}`} className={styles.card}>
          <p>Stop receiving e-mails from this store: invoices, reminders, receipts and refund notices.</p>
          <button type="submit" className={styles.button}>
            Unsubscribe
          </button>
        </form>
      ) : (
        <p>This unsubscribe link is incomplete. Use the link in the e-mail you received.</p>
      )}
    </main>
  );
}
