"use client";

import { useState } from "react";
import { customerErrorMessage } from "@/lib/orders/customer-messages";
import styles from "./pay.module.css";

export interface PublicLinkView {
  id: string;
  title: string;
  amount: string | null;
  price_amount: string | null;
  price_currency: string | null;
  options: { blockchain: string; currency: string }[];
  max_quantity: number;
  shop_name: string;
}

/** The payment link's form: option and quantity, then POST /api/links/{id}/orders/ and on to the hosted payment page. */
export function LinkCheckout({ link }: { link: PublicLinkView }) {
  const [choice, setChoice] = useState(0);
  const [quantity, setQuantity] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const price = link.price_amount ? `${link.price_amount} ${link.price_currency}` : `${link.amount} ${link.options[0]?.currency ?? ""}`;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const option = link.options[choice]!;
    try {
      const res = await fetch(`/api/links/${link.id}/orders/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ blockchain: option.blockchain, currency: option.currency, quantity }),
      });
      const body = await res.json();
      if (res.ok && body?.data?.payment_url) {
        window.location.assign(new URL(body.data.payment_url, window.location.href).pathname);
        return;
      }
      // The envelope's message is written for the merchant's developers; the customer gets plain words.
      setError(customerErrorMessage(body?.error?.code, { shopName: link.shop_name }));
    } catch {
      setError("The payment service did not answer. Check your connection and try again.");
    }
    setPending(false);
  }

  return (
    <main className={styles.page} data-color-scheme="auto">
      <div className={styles.card}>
        <p className={styles.hint}>{link.shop_name}</p>
        <h1>{link.title}</h1>
        <p data-testid="link-price">
          {price}
          {link.max_quantity > 1 ? " each" : ""}
          {link.price_amount ? " — converted into your token at the on-chain rate when you continue, then locked." : ""}
        </p>
        <form onSubmit={submit} aria-label="Choose how to pay">
          <fieldset>
            <legend>Pay with</legend>
            {link.options.map((o, i) => (
              <label key={`${o.blockchain}:${o.currency}`} style={{ display: "block" }}>
                <input type="radio" name="option" checked={choice === i} onChange={() => setChoice(i)} /> {o.currency} on {o.blockchain}
              </label>
            ))}
          </fieldset>
          {link.max_quantity > 1 && (
            <label style={{ display: "block", marginTop: "0.75rem" }}>
              Quantity{" "}
              <input type="number" min={1} max={link.max_quantity} value={quantity} onChange={(e) => setQuantity(Math.max(1, Math.min(link.max_quantity, Number(e.target.value) || 1)))} />
            </label>
          )}
          {error && (
            <p role="alert" className={styles.hint}>
              {error}
            </p>
          )}
          <button type="submit" className={styles.button} disabled={pending} style={{ marginTop: "1rem" }}>
            {pending ? "Creating your order…" : "Continue to payment"}
          </button>
        </form>
      </div>
    </main>
  );
}
