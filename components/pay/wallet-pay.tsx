"use client";

import { lazy, Suspense, useState } from "react";
import type { PublicOrder } from "@/lib/orders/public-order";
import styles from "./pay.module.css";

// wagmi, viem and the connectors load only after the customer asks for them (see bench/pay-page.ts).
const WalletPanel = lazy(() => import("./wallet-panel"));

/** "Pay with a browser wallet": a plain button until clicked, then the wagmi part. */
export function WalletPay({ order, walletConnectProjectId }: { order: PublicOrder; walletConnectProjectId: string | null }) {
  const [open, setOpen] = useState(false);
  const payable = order.status === "pending";
  return (
    <section className={`${styles.card} ${styles.wallet}`} aria-labelledby="wallet-title">
      <h2 id="wallet-title" className={styles.sectionTitle}>
        Pay with a browser wallet
      </h2>
      {open ? (
        <Suspense fallback={<p className={styles.hint}>Loading wallet support…</p>}>
          <WalletPanel order={order} walletConnectProjectId={walletConnectProjectId} />
        </Suspense>
      ) : (
        <>
          <button type="button" className={styles.button} disabled={!payable} onClick={() => setOpen(true)}>
            Connect wallet
          </button>
          <p className={styles.hint}>
            {payable ? "MetaMask, Rabby, Coinbase Wallet or any other browser wallet." : "No payment is expected for this order now."}
          </p>
        </>
      )}
    </section>
  );
}
