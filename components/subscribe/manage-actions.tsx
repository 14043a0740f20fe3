"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { erc20Abi, getAddress, type Address } from "viem";
import styles from "@/components/pay/pay.module.css";
import { connectWallet, walletFailure } from "./customer-wallet";

/**
 * The manage page's actions: cancel (with the manage link's token, confirmed first) and revoke the
 * allowance from the customer's own wallet (approve(pull contract, 0)), offered once canceled too.
 */
export function ManageActions({
  token,
  live,
  chainId,
  tokenAddress,
  pullAddress,
  customerAddress,
}: {
  token: string;
  live: boolean;
  chainId: number;
  tokenAddress: string;
  pullAddress: string;
  customerAddress: string;
}) {
  const t = useTranslations("subscribe");
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [revokeState, setRevokeState] = useState<"idle" | "confirm" | "waiting" | "done">("idle");
  const [revokeError, setRevokeError] = useState<string | null>(null);

  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/manage-subscription/cancel/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      if (!response.ok && response.status !== 409) throw new Error(String(response.status));
      setConfirming(false);
      router.refresh();
    } catch {
      setError(t("failed"));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    setRevokeError(null);
    setRevokeState("confirm");
    try {
      const wallet = await connectWallet(chainId);
      if (!wallet) throw Object.assign(new Error("none"), { noWallet: true });
      if (getAddress(wallet.account) !== getAddress(customerAddress)) {
        setRevokeState("idle");
        setRevokeError(t("wrongWallet", { address: customerAddress }));
        return;
      }
      if (!wallet.onChain) await wallet.switchChain();
      const hash = await wallet.wallet.writeContract({
        account: wallet.account,
        chain: null,
        address: tokenAddress as Address,
        abi: erc20Abi,
        functionName: "approve",
        args: [pullAddress as Address, 0n],
      });
      setRevokeState("waiting");
      const receipt = await wallet.reader.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error("reverted");
      setRevokeState("done");
    } catch (e) {
      setRevokeState("idle");
      if ((e as { noWallet?: boolean }).noWallet) setRevokeError(t("noBrowserWallet"));
      else setRevokeError(walletFailure(e) === "cancelled" ? t("cancelled") : t("failed"));
    }
  };

  return (
    <>
      {live && (
        <section className={styles.card} aria-labelledby="cancel-title">
          <h2 id="cancel-title" className={styles.sectionTitle}>
            {t("cancelButton")}
          </h2>
          {confirming ? (
            <>
              <p>{t("cancelConfirm")}</p>
              <p className={styles.row}>
                <button type="button" className={styles.button} onClick={cancel} disabled={busy}>
                  {t("cancelYes")}
                </button>
                <button type="button" className={`${styles.button} ${styles.secondary}`} onClick={() => setConfirming(false)} disabled={busy}>
                  {t("cancelNo")}
                </button>
              </p>
            </>
          ) : (
            <p className={styles.row}>
              <button type="button" className={styles.button} onClick={() => setConfirming(true)}>
                {t("cancelButton")}
              </button>
            </p>
          )}
          {error && (
            <p role="alert" className={styles.error}>
              {error}
            </p>
          )}
        </section>
      )}
      <section className={styles.card} aria-labelledby="revoke-title">
        <h2 id="revoke-title" className={styles.sectionTitle}>
          {t("revokeTitle")}
        </h2>
        <p>{t("revokeText")}</p>
        {revokeState === "done" ? (
          <p className={`${styles.notice}`} role="status" data-testid="revoked">
            {t("revoked")}
          </p>
        ) : (
          <p className={styles.row}>
            <button type="button" className={`${styles.button} ${styles.secondary}`} onClick={revoke} disabled={revokeState !== "idle"}>
              {t("revokeButton")}
            </button>
          </p>
        )}
        <p className={styles.hint} role="status" aria-live="polite">
          {revokeState === "confirm" ? t("confirmInWallet") : revokeState === "waiting" ? t("revoking") : ""}
        </p>
        {revokeError && (
          <p role="alert" className={styles.error}>
            {revokeError}
          </p>
        )}
      </section>
    </>
  );
}
