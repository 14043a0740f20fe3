"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { erc20Abi, getAddress, parseUnits, type Chain, type Hash } from "viem";
import {
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  useSendTransaction,
  useSwitchChain,
  useWaitForTransactionReceipt,
  useWriteContract,
  type Config,
  type Connector,
} from "wagmi";
import { PayWagmiProvider } from "@/components/providers/wagmi-provider";
import { createPayWagmiConfig, viemChainFor } from "@/components/providers/wagmi-config";
import { walletErrorMessage } from "@/lib/orders/customer-messages";
import type { PublicOrder } from "@/lib/orders/public-order";
import styles from "./pay.module.css";

function Pay({ order, chain }: { order: PublicOrder; chain: Chain }) {
  const t = useTranslations("wallet");
  const describe = (error: unknown) => walletErrorMessage(error, t);
  const connectorLabel = (connector: Connector) => (connector.id === "injected" ? t("browserWallet") : connector.name);
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const switchChain = useSwitchChain();
  const write = useWriteContract();
  const send = useSendTransaction();
  const [hash, setHash] = useState<Hash | null>(null);
  const receipt = useWaitForTransactionReceipt({ hash: hash ?? undefined, chainId: chain.id, query: { enabled: hash !== null } });

  // EIP-6963 wallets announce themselves; the generic window.ethereum entry is only a fallback.
  const discovered = connectors.filter((c) => c.id !== "injected" && c.id !== "walletConnect");
  const offered = connectors.filter((c) => c.id !== "injected" || discovered.length === 0);

  if (connection.status !== "connected" || !connection.address) {
    return (
      <>
        <div className={styles.row}>
          {offered.map((connector) => (
            <button
              key={connector.uid}
              type="button"
              className={styles.button}
              disabled={connect.isPending}
              onClick={() => connect.mutate({ connector, chainId: chain.id })}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- the wallet's own data: URI icon */}
              {connector.icon && <img src={connector.icon} alt="" width={20} height={20} style={{ verticalAlign: "middle", marginRight: 6 }} />}
              {connectorLabel(connector)}
            </button>
          ))}
        </div>
        <p className={styles.hint} role="status">
          {connect.isPending ? t("confirmConnection") : ""}
        </p>
        {connect.error && <p className={styles.error}>{describe(connect.error)}</p>}
      </>
    );
  }

  const address = connection.address;
  const wrongChain = connection.chainId !== chain.id;
  const amount = parseUnits(order.amount_missing, order.token.decimals);
  const to = getAddress(order.receiving_address);
  const sending = write.isPending || send.isPending;
  const payable = order.status === "pending" && amount > 0n && hash === null;

  const pay = () => {
    const onSuccess = (txHash: Hash) => setHash(txHash);
    if (order.token.address) {
      write.mutate(
        { address: getAddress(order.token.address), abi: erc20Abi, functionName: "transfer", args: [to, amount], chainId: chain.id },
        { onSuccess },
      );
    } else {
      send.mutate({ to, value: amount, chainId: chain.id }, { onSuccess });
    }
  };

  let note = "";
  if (switchChain.isPending) note = t("approveSwitch", { network: chain.name });
  else if (sending) note = t("confirmPayment");
  else if (hash && receipt.isLoading) note = t("waitingBlock");
  else if (hash && receipt.data?.status === "success") note = t("included", { block: receipt.data.blockNumber.toString() });
  else if (hash && receipt.data?.status === "reverted") note = t("reverted");

  const error = switchChain.error ?? write.error ?? send.error ?? receipt.error;

  return (
    <>
      <p className={styles.statusText}>
        {t("connected")} <code className={styles.mono}>{address}</code>{" "}
        <button type="button" className={`${styles.button} ${styles.secondary} ${styles.small}`} onClick={() => disconnect.mutate({})}>
          {t("disconnect")}
        </button>
      </p>
      <div className={styles.row}>
        {wrongChain && <p className={styles.statusText}>{t("wrongNetwork", { network: chain.name })}</p>}
        {wrongChain ? (
          <button type="button" className={styles.button} disabled={switchChain.isPending} onClick={() => switchChain.mutate({ chainId: chain.id })}>
            {t("switchTo", { network: chain.name })}
          </button>
        ) : (
          <button type="button" className={styles.button} disabled={!payable || sending} onClick={pay}>
            {t("payAmount", { amount: order.amount_missing, currency: order.currency })}
          </button>
        )}
      </div>
      {hash && (
        <p className={styles.statusText} data-testid="wallet-tx">
          {t("transaction")} <code className={styles.mono}>{hash}</code>
        </p>
      )}
      <p className={styles.hint} role="status">
        {note}
      </p>
      {error && !sending && <p className={styles.error}>{describe(error)}</p>}
    </>
  );
}

/** The wagmi part of the page (a separate chunk): builds the config for the order's chain and offers connect, switch and pay. */
export default function WalletPanel({ order, walletConnectProjectId }: { order: PublicOrder; walletConnectProjectId: string | null }) {
  const t = useTranslations("wallet");
  const [config, setConfig] = useState<Config | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // An order's chain never changes: keep the first value, so status polls never rebuild the config (and drop the connection).
  const [info] = useState(() => order.blockchain);
  const [chain] = useState(() => viemChainFor(order.blockchain));
  useEffect(() => {
    let live = true;
    createPayWagmiConfig(info, walletConnectProjectId).then(
      (c) => live && setConfig(c),
      (e: unknown) => live && setFailed(walletErrorMessage(e, t)),
    );
    return () => {
      live = false;
    };
  }, [info, walletConnectProjectId, t]);

  if (failed) return <p className={styles.error}>{failed}</p>;
  if (!config) return <p className={styles.hint}>{t("loading")}</p>;
  return (
    <PayWagmiProvider config={config}>
      <Pay order={order} chain={chain} />
    </PayWagmiProvider>
  );
}
