"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import type { AmountDue } from "@/lib/orders/checkout-view";
import type { PublicOrder } from "@/lib/orders/schemas";
import { browserWallet, touchDeviceStore } from "./browser-wallet";
import styles from "./pay.module.css";

// wagmi, viem and the connectors load only after the customer asks for them (see bench/pay-page.ts).
const WalletPanel = lazy(() => import("./wallet-panel"));

/**
 * On touch screens, "Open in wallet app": the EIP-681 URI (amount included) as a link. It sits in the
 * status panel under the instruction, near the top of the page, where a phone shows it at once.
 */
export function OpenInWalletApp({ due, currency }: { due: AmountDue; currency: string }) {
  const t = useTranslations("wallet");
  const touch = useSyncExternalStore(...touchDeviceStore);
  if (!touch) return null;
  return (
    <p className={styles.row}>
      <a className={styles.button} href={due.paymentUri} data-testid="open-in-wallet">
        {t("openInWallet")}
      </a>
      <span className={styles.hint}>{t("fillsIn", { amount: due.exact, currency })}</span>
    </p>
  );
}

/**
 * The wallet ways to pay what is due (on touch screens "Open in wallet app" is above, in the status
 * panel): "Connect wallet" (a plain button until clicked, then the wagmi part), which
 * says so plainly when there is no browser wallet; and, when WALLETCONNECT_PROJECT_ID is set, a
 * "WalletConnect" button beside it, which loads the wagmi part with WalletConnect's connector and
 * opens its QR modal. Both are plain buttons here: none of that code is in the page's first load.
 */
export function WalletPay({ order, walletConnectProjectId }: { order: PublicOrder; walletConnectProjectId: string | null }) {
  const t = useTranslations("wallet");
  /** Which wallet the customer chose: the wagmi part loads only then. */
  const [open, setOpen] = useState<"browser" | "walletConnect" | null>(null);
  const [missing, setMissing] = useState(false);
  const touch = useSyncExternalStore(...touchDeviceStore);
  const connect = () => {
    if (!browserWallet()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setOpen("browser");
  };
  return (
    <section className={`${styles.card} ${styles.wallet}`} aria-labelledby="wallet-title">
      <h2 id="wallet-title" className={styles.sectionTitle}>
        {t("title")}
      </h2>
      {open ? (
        <Suspense fallback={<p className={styles.hint}>{t("loading")}</p>}>
          <WalletPanel order={order} walletConnectProjectId={open === "walletConnect" ? walletConnectProjectId : null} />
        </Suspense>
      ) : (
        <>
          <div className={styles.row}>
            <button type="button" className={touch ? `${styles.button} ${styles.secondary}` : styles.button} onClick={connect}>
              {t("connect")}
            </button>
            {walletConnectProjectId && (
              <button type="button" className={`${styles.button} ${styles.secondary}`} onClick={() => setOpen("walletConnect")}>
                {t("walletConnect")}
              </button>
            )}
          </div>
          {missing ? (
            <p className={styles.notice} role="alert" data-testid="no-wallet">
              {t("noBrowserWallet")}
            </p>
          ) : (
            <p className={styles.hint}>{walletConnectProjectId ? t("hintWalletConnect") : t("hint")}</p>
          )}
        </>
      )}
    </section>
  );
}
