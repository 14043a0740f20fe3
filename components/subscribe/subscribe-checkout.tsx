"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { erc20Abi, getAddress, type Address, type Hex } from "viem";
import styles from "@/components/pay/pay.module.css";
import type { PayChainInfo } from "@/components/providers/wagmi-config";
import { connectWallet, walletFailure, type ConnectedWallet } from "./customer-wallet";

/** WalletConnect for the subscribe page (set only when WALLETCONNECT_PROJECT_ID is): the project, the store's name, the chain. */
export interface SubscribeWalletConnect {
  projectId: string;
  shopName: string;
  chain: PayChainInfo;
}

export interface CheckoutSubscription {
  id: string;
  chainId: number;
  network: string;
  customerAddress: string;
  pullAddress: string;
  token: string;
  value: string;
  method: "permit" | "approve";
  allowance: string;
  currency: string;
  permit: {
    domain: { name: string; version: string; chainId: number; verifyingContract: string };
    message: { owner: string; spender: string; value: string; nonce: string; deadline: string };
  } | null;
}

const permitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

type Step = "idle" | "connecting" | "walletConnect" | "confirm" | "submitting" | "done";

/** The gateway will not relay the permit now (its gasless budget is used up): the customer's approve is the way. */
class PermitUnavailable extends Error {}

async function post(path: string, body: unknown): Promise<{ manage_url: string }> {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await response.json().catch(() => null)) as { data?: { manage_url: string }; error?: { code?: string; message: string } } | null;
  if (json?.error?.code === "RELAY_BUDGET_EXHAUSTED") throw new PermitUnavailable(json.error.message);
  if (!response.ok || !json?.data) throw new Error(json?.error?.message ?? `HTTP ${response.status}`);
  return json.data;
}

/**
 * The subscribe page's one signature: connect the subscriber's wallet, then either sign the EIP-2612
 * permit the server prepared (the gateway submits it: no gas) or send the approve transaction; the
 * server answers the manage link, shown at the end.
 */
export function SubscribeCheckout({
  subscription,
  walletConnect = null,
}: {
  subscription: CheckoutSubscription;
  walletConnect?: SubscribeWalletConnect | null;
}) {
  const t = useTranslations("subscribe");
  // The page's language: the customer's mail is written in it, unless the store chose theirs.
  const locale = useLocale();
  const [step, setStep] = useState<Step>("idle");
  const [connected, setConnected] = useState<ConnectedWallet | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [manageUrl, setManageUrl] = useState<string | null>(null);
  const [onChain, setOnChain] = useState(false);
  // The permit needs the gateway to pay its gas; when it will not now, the approve transaction is offered.
  const [permitRefused, setPermitRefused] = useState(false);
  const method = permitRefused ? "approve" : subscription.method;

  const fail = (error: unknown) => {
    setStep("idle");
    if (error instanceof PermitUnavailable) {
      setPermitRefused(true);
      setNotice(t("permitUnavailable"));
      return;
    }
    const failure = walletFailure(error);
    if (failure === "cancelled") setNotice(t("cancelled"));
    else if (failure === "unreachable") setNotice(t("walletConnectUnreachable"));
    else setNotice(error instanceof Error && error.message.length < 200 && !("code" in error) ? error.message : t("failed"));
  };

  const connect = async () => {
    setNotice(null);
    setStep("connecting");
    try {
      const wallet = await connectWallet(subscription.chainId);
      if (!wallet) {
        setStep("idle");
        setNotice(t("noBrowserWallet"));
        return;
      }
      setConnected(wallet);
      setOnChain(wallet.onChain);
      setStep("idle");
    } catch (error) {
      fail(error);
    }
  };

  /** WalletConnect: its code (wagmi's connector and the QR modal) loads only now, on the customer's choice. */
  const connectPhone = async () => {
    if (!walletConnect) return;
    setNotice(null);
    setStep("walletConnect");
    try {
      const { connectWalletConnect } = await import("./walletconnect-wallet");
      const wallet = await connectWalletConnect(walletConnect.chain, { projectId: walletConnect.projectId, shopName: walletConnect.shopName });
      setConnected(wallet);
      setOnChain(wallet.onChain);
      setStep("idle");
    } catch (error) {
      fail(error);
    }
  };

  const switchChain = async () => {
    if (!connected) return;
    setNotice(null);
    try {
      await connected.switchChain();
      setOnChain(true);
    } catch (error) {
      fail(error);
    }
  };

  const rightWallet = connected && getAddress(connected.account) === getAddress(subscription.customerAddress);

  const subscribe = async () => {
    if (!connected) return;
    setNotice(null);
    setStep("confirm");
    try {
      let link: { manage_url: string };
      if (method === "permit" && subscription.permit) {
        const { domain, message } = subscription.permit;
        const signature = await connected.wallet.signTypedData({
          account: connected.account,
          domain: { ...domain, verifyingContract: domain.verifyingContract as Address },
          types: permitTypes,
          primaryType: "Permit",
          message: {
            owner: message.owner as Address,
            spender: message.spender as Address,
            value: BigInt(message.value),
            nonce: BigInt(message.nonce),
            deadline: BigInt(message.deadline),
          },
        });
        setStep("submitting");
        link = await post(`/api/hosted-subscriptions/${subscription.id}/authorize/`, { signature, deadline: Number(message.deadline), locale });
      } else {
        const hash: Hex = await connected.wallet.writeContract({
          account: connected.account,
          chain: null,
          address: subscription.token as Address,
          abi: erc20Abi,
          functionName: "approve",
          args: [subscription.pullAddress as Address, BigInt(subscription.value)],
        });
        setStep("submitting");
        await connected.reader.waitForTransactionReceipt({ hash });
        link = await post(`/api/hosted-subscriptions/${subscription.id}/approval/`, { transaction_hash: hash, locale });
      }
      setManageUrl(link.manage_url);
      setStep("done");
    } catch (error) {
      fail(error);
    }
  };

  if (step === "done" && manageUrl) {
    return (
      <section className={styles.card} aria-labelledby="subscribed-title" data-testid="subscribed">
        <h2 id="subscribed-title" className={styles.sectionTitle}>
          {t("doneTitle")}
        </h2>
        <p>{t("doneText")}</p>
        <p className={styles.row}>
          <a className={styles.button} href={manageUrl} data-testid="manage-link">
            {t("manageLink")}
          </a>
        </p>
        <p className={`${styles.mono} ${styles.hint}`}>{manageUrl}</p>
      </section>
    );
  }

  const busy = step !== "idle";
  return (
    <section className={`${styles.card} ${styles.wallet}`} aria-labelledby="subscribe-title">
      <h2 id="subscribe-title" className={styles.sectionTitle}>
        {t("signTitle")}
      </h2>
      {!connected ? (
        <>
          <p className={styles.row}>
            <button type="button" className={styles.button} onClick={connect} disabled={busy}>
              {t("connect")}
            </button>
            {walletConnect && (
              <button type="button" className={`${styles.button} ${styles.secondary}`} onClick={connectPhone} disabled={busy}>
                {t("walletConnect")}
              </button>
            )}
          </p>
          <p className={styles.hint}>{walletConnect ? t("connectHintWalletConnect") : t("connectHint")}</p>
        </>
      ) : (
        <>
          <p className={styles.mono}>{t("connected", { address: connected.account })}</p>
          {!rightWallet ? (
            <p role="alert" className={styles.error}>
              {t("wrongWallet", { address: subscription.customerAddress })}
            </p>
          ) : !onChain ? (
            <>
              <p className={styles.hint}>{t("wrongNetwork", { network: subscription.network })}</p>
              <p className={styles.row}>
                <button type="button" className={styles.button} onClick={switchChain}>
                  {t("switchTo", { network: subscription.network })}
                </button>
              </p>
            </>
          ) : (
            <>
              <p className={styles.row}>
                <button type="button" className={styles.button} onClick={subscribe} disabled={busy}>
                  {method === "permit" ? t("signPermit") : t("approve", { amount: subscription.allowance, currency: subscription.currency })}
                </button>
              </p>
              <p className={styles.hint}>{method === "permit" ? t("permitHint") : t("approveHint")}</p>
            </>
          )}
        </>
      )}
      <p className={styles.hint} role="status" aria-live="polite">
        {step === "walletConnect" ? t("walletConnectOpening") : step === "confirm" ? t("confirmInWallet") : step === "submitting" ? t("submitting") : ""}
      </p>
      {notice && (
        <p role="alert" className={styles.error} data-testid="subscribe-notice">
          {notice}
        </p>
      )}
    </section>
  );
}
