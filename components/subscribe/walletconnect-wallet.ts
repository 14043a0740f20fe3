"use client";

import type { EIP1193Provider } from "viem";
import { connect } from "wagmi/actions";
import { createPayWagmiConfig, walletConnectPatienceMs, type PayChainInfo, type PayWalletConnect } from "@/components/providers/wagmi-config";
import { WalletConnectUnreachable, walletOn, type ConnectedWallet } from "./customer-wallet";

/** WalletConnect's provider as far as this page uses it: the QR modal it opened (AppKit). */
type WalletConnectProvider = { modal?: { close?: () => unknown } } | undefined;

/**
 * The subscribe page's WalletConnect (loaded only when the customer chooses it): the payment page's
 * wagmi config and connector for the subscription's chain, connected through its QR modal, then
 * used like the browser wallet. No pairing QR code within the payment page's patience (the relay
 * cannot be reached): the modal is closed and WalletConnectUnreachable thrown.
 */
export async function connectWalletConnect(chain: PayChainInfo, walletConnect: PayWalletConnect): Promise<ConnectedWallet> {
  const config = await createPayWagmiConfig(chain, walletConnect);
  const connector = config.connectors.find((c) => c.id === "walletConnect");
  if (!connector) throw new WalletConnectUnreachable();
  let shown = false;
  const onMessage = ({ type }: { type: string }) => {
    if (type === "display_uri") shown = true;
  };
  connector.emitter.on("message", onMessage);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const patience = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (shown) return;
      connector.getProvider().then(
        (provider) => (provider as WalletConnectProvider)?.modal?.close?.(),
        () => undefined,
      );
      reject(new WalletConnectUnreachable());
    }, walletConnectPatienceMs);
  });
  try {
    await Promise.race([connect(config, { connector, chainId: chain.chain_id }), patience]);
  } catch (error) {
    // An attempt that ended before its QR code appeared never reached the relay.
    throw shown ? error : new WalletConnectUnreachable();
  } finally {
    clearTimeout(timer);
    connector.emitter.off("message", onMessage);
  }
  return walletOn((await connector.getProvider()) as EIP1193Provider, chain.chain_id);
}
