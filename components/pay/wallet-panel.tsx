"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { erc20Abi, getAddress, parseUnits, toHex, type Address, type Chain, type Hash } from "viem";
import {
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  useSendTransaction,
  useSignTypedData,
  useSwitchChain,
  useWaitForTransactionReceipt,
  useWriteContract,
  type Config,
  type Connector,
} from "wagmi";
import { PayWagmiProvider } from "@/components/providers/wagmi-provider";
import { createPayWagmiConfig, viemChainFor, walletConnectPatienceMs } from "@/components/providers/wagmi-config";
import { transferAuthorizationTypedData } from "@/lib/gasless/typed-data";
import { customerErrorMessage, walletErrorMessage, type Translate } from "@/lib/http/error-wording";
import type { PublicOrder } from "@/lib/orders/schemas";
import styles from "./pay.module.css";

/**
 * "Pay without gas" (tokens with EIP-3009): the wallet signs TransferWithAuthorization of exactly
 * the amount due to the deposit address, and the gateway relays it (POST /api/pay/{id}/gasless/),
 * paying the gas. Returns the relayed transaction's hash.
 */
async function payWithoutGas(
  order: PublicOrder & { gasless: NonNullable<PublicOrder["gasless"]>; token: { address: string } },
  from: Address,
  signTypedData: ReturnType<typeof useSignTypedData>["mutateAsync"],
  errorWords: Translate,
): Promise<Hash> {
  const message = {
    from,
    to: getAddress(order.receiving_address),
    value: parseUnits(order.amount_missing, order.token.decimals),
    validAfter: BigInt(order.gasless.valid_after),
    validBefore: BigInt(order.gasless.valid_before),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const domain = {
    name: order.gasless.name,
    version: order.gasless.version,
    chainId: order.blockchain.chain_id,
    verifyingContract: getAddress(order.token.address),
  };
  const signature = await signTypedData({ account: from, ...transferAuthorizationTypedData(domain, message) });
  const response = await fetch(`/api/pay/${encodeURIComponent(order.order_id)}/gasless/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      from,
      to: message.to,
      value: message.value.toString(),
      valid_after: Number(message.validAfter),
      valid_before: Number(message.validBefore),
      nonce: message.nonce,
      signature,
    }),
  });
  const body = (await response.json().catch(() => null)) as { data?: { transaction_hash: Hash }; error?: { code?: string } } | null;
  if (!response.ok || !body?.data) throw new GaslessRefused(customerErrorMessage(body?.error?.code, { shopName: order.shop_name }, errorWords));
  return body.data.transaction_hash;
}

/** The gateway refused to relay: its message is already the customer's words. */
class GaslessRefused extends Error {}

/** WalletConnect's provider as far as this page uses it: the QR modal it opened (AppKit). */
type WalletConnectProvider = { modal?: { close?: () => unknown } } | undefined;

/**
 * `startWith`: "walletConnect" when the customer chose the WalletConnect option, which is then
 * started at once (its QR modal opens). Connected by either connector, the payment below is the same.
 */
function Pay({ order, chain, startWith }: { order: PublicOrder; chain: Chain; startWith: "walletConnect" | null }) {
  const t = useTranslations("wallet");
  const errorWords = useTranslations("errors");
  const describe = (error: unknown) => walletErrorMessage(error, t);
  const connectorLabel = (connector: Connector) => (connector.id === "injected" ? t("browserWallet") : connector.name);
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const switchChain = useSwitchChain();
  const write = useWriteContract();
  const send = useSendTransaction();
  const signTypedData = useSignTypedData();
  const [gasless, setGasless] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });
  const [hash, setHash] = useState<Hash | null>(null);
  const receipt = useWaitForTransactionReceipt({ hash: hash ?? undefined, chainId: chain.id, query: { enabled: hash !== null } });
  // WalletConnect: whether its pairing QR code was shown this attempt; "unreachable" when the relay never answered.
  const [walletConnectTrouble, setWalletConnectTrouble] = useState(false);
  const pairingShown = useRef(false);
  const started = useRef(false);

  // EIP-6963 wallets announce themselves; the generic window.ethereum entry is only a fallback.
  const discovered = connectors.filter((c) => c.id !== "injected" && c.id !== "walletConnect");
  const offered = connectors.filter((c) => c.id !== "injected" || discovered.length === 0);
  const walletConnect = connectors.find((c) => c.id === "walletConnect");

  /**
   * Connects with `connector`. A WalletConnect attempt that ends before its QR code appeared (an
   * error, or the customer closing a modal that still waited for the relay) means the relay cannot
   * be reached: the customer is told so, and the page's QR code and Copy buttons remain.
   */
  const connectWith = (connector: Connector) => {
    if (connector.id === "walletConnect") pairingShown.current = false;
    connect.mutate(
      { connector, chainId: chain.id },
      { onError: () => connector.id === "walletConnect" && !pairingShown.current && setWalletConnectTrouble(true) },
    );
  };

  // The WalletConnect option: start it at once, once.
  useEffect(() => {
    if (startWith !== "walletConnect" || !walletConnect || started.current) return;
    started.current = true;
    pairingShown.current = false;
    connect.mutate({ connector: walletConnect, chainId: chain.id }, { onError: () => !pairingShown.current && setWalletConnectTrouble(true) });
  }, [startWith, walletConnect, connect, chain.id]);

  // Its QR code appears with the pairing URI (the relay answered).
  useEffect(() => {
    if (!walletConnect) return;
    const onMessage = ({ type }: { type: string }) => {
      if (type === "display_uri") pairingShown.current = true;
    };
    walletConnect.emitter.on("message", onMessage);
    return () => walletConnect.emitter.off("message", onMessage);
  }, [walletConnect]);

  // No pairing QR code in time: close the modal (its spinner would wait for ever) and say so; the attempt then ends.
  const connectingWalletConnect = connect.isPending && connect.variables?.connector === walletConnect && walletConnect !== undefined;
  useEffect(() => {
    if (!connectingWalletConnect || !walletConnect) return;
    const timer = setTimeout(() => {
      if (pairingShown.current) return;
      setWalletConnectTrouble(true);
      walletConnect.getProvider().then(
        (provider) => (provider as WalletConnectProvider)?.modal?.close?.(),
        () => undefined,
      );
    }, walletConnectPatienceMs);
    return () => clearTimeout(timer);
  }, [connectingWalletConnect, walletConnect]);

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
              onClick={() => {
                setWalletConnectTrouble(false);
                connectWith(connector);
              }}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- the wallet's own data: URI icon */}
              {connector.icon && <img src={connector.icon} alt="" width={20} height={20} style={{ verticalAlign: "middle", marginRight: 6 }} />}
              {connectorLabel(connector)}
            </button>
          ))}
        </div>
        <p className={styles.hint} role="status">
          {connectingWalletConnect ? t("walletConnectOpening") : connect.isPending ? t("confirmConnection") : ""}
        </p>
        {walletConnectTrouble && !connectingWalletConnect ? (
          <p className={styles.notice} role="alert" data-testid="walletconnect-unreachable">
            {t("walletConnectUnreachable")}
          </p>
        ) : (
          connect.error && !connect.isPending && <p className={styles.error}>{describe(connect.error)}</p>
        )}
      </>
    );
  }

  const address = connection.address;
  const wrongChain = connection.chainId !== chain.id;
  const amount = parseUnits(order.amount_missing, order.token.decimals);
  const to = getAddress(order.receiving_address);
  const sending = write.isPending || send.isPending || gasless.pending;
  const payable = order.status === "pending" && amount > 0n && hash === null;

  const pay = () => {
    const onSuccess = (txHash: Hash) => setHash(txHash);
    if (order.token.address) {
      write.mutate({ address: getAddress(order.token.address), abi: erc20Abi, functionName: "transfer", args: [to, amount], chainId: chain.id }, { onSuccess });
    } else {
      send.mutate({ to, value: amount, chainId: chain.id }, { onSuccess });
    }
  };

  const gaslessOrder =
    order.gasless && order.token.address ? { ...order, gasless: order.gasless, token: { ...order.token, address: order.token.address } } : null;
  const payGasless = () => {
    if (!gaslessOrder) return;
    setGasless({ pending: true, error: null });
    payWithoutGas(gaslessOrder, address, signTypedData.mutateAsync, errorWords).then(
      (txHash) => {
        setHash(txHash);
        setGasless({ pending: false, error: null });
      },
      (error: unknown) => setGasless({ pending: false, error }),
    );
  };

  let note = "";
  if (switchChain.isPending) note = t("approveSwitch", { network: chain.name });
  else if (signTypedData.isPending) note = t("signGasless");
  else if (gasless.pending) note = t("sendingSigned");
  else if (sending) note = t("confirmPayment");
  else if (hash && receipt.isLoading) note = t("waitingBlock");
  else if (hash && receipt.data?.status === "success") note = t("included", { block: receipt.data.blockNumber.toString() });
  else if (hash && receipt.data?.status === "reverted") note = t("reverted");

  const error = switchChain.error ?? write.error ?? send.error ?? receipt.error ?? gasless.error;

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
          <>
            <button type="button" className={styles.button} disabled={!payable || sending} onClick={pay}>
              {t("payAmount", { amount: order.amount_missing, currency: order.currency })}
            </button>
            {gaslessOrder && (
              <button type="button" className={`${styles.button} ${styles.secondary}`} disabled={!payable || sending} onClick={payGasless}>
                {t("payWithoutGas")}
              </button>
            )}
          </>
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
      {error && !sending && <p className={styles.error}>{error instanceof GaslessRefused ? error.message : describe(error)}</p>}
    </>
  );
}

/** The wagmi part of the page (a separate chunk): builds the config for the order's chain and offers connect, switch and pay. */
/**
 * `walletConnectProjectId` set: the customer chose WalletConnect (its connector is added and started);
 * null: the browser wallet.
 */
export default function WalletPanel({ order, walletConnectProjectId }: { order: PublicOrder; walletConnectProjectId: string | null }) {
  const t = useTranslations("wallet");
  const [config, setConfig] = useState<Config | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // An order's chain never changes: keep the first value, so status polls never rebuild the config (and drop the connection).
  const [info] = useState(() => order.blockchain);
  const [chain] = useState(() => viemChainFor(order.blockchain));
  const [shopName] = useState(() => order.shop_name);
  useEffect(() => {
    let live = true;
    createPayWagmiConfig(info, walletConnectProjectId ? { projectId: walletConnectProjectId, shopName } : null).then(
      (c) => live && setConfig(c),
      (e: unknown) => live && setFailed(walletErrorMessage(e, t)),
    );
    return () => {
      live = false;
    };
  }, [info, walletConnectProjectId, shopName, t]);

  if (failed) return <p className={styles.error}>{failed}</p>;
  if (!config) return <p className={styles.hint}>{t("loading")}</p>;
  return (
    <PayWagmiProvider config={config}>
      <Pay order={order} chain={chain} startWith={walletConnectProjectId ? "walletConnect" : null} />
    </PayWagmiProvider>
  );
}
