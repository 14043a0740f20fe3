"use client";

import { createPublicClient, createWalletClient, custom, type Address, type EIP1193Provider } from "viem";
import { browserWallet } from "@/components/pay/browser-wallet";

/** Why a wallet step stopped, for the page's words: the customer said no, WalletConnect never answered, or anything else. */
export type WalletFailure = "cancelled" | "unreachable" | "failed";

/** WalletConnect showed no pairing QR code in time (its relay cannot be reached). */
export class WalletConnectUnreachable extends Error {
  constructor() {
    super("WalletConnect cannot be reached.");
    this.name = "WalletConnectUnreachable";
  }
}

export function walletFailure(error: unknown): WalletFailure {
  if (error instanceof WalletConnectUnreachable) return "unreachable";
  const code = (error as { code?: number; cause?: { code?: number } })?.code ?? (error as { cause?: { code?: number } })?.cause?.code;
  const name = (error as { name?: string })?.name ?? "";
  return code === 4001 || name === "UserRejectedRequestError" ? "cancelled" : "failed";
}

/**
 * A connected wallet (its EIP-1193 provider) as viem clients: asked for its account, and on the
 * subscription's chain (switched when it is elsewhere). The browser wallet and WalletConnect alike.
 */
export async function walletOn(provider: EIP1193Provider, chainId: number) {
  const wallet = createWalletClient({ transport: custom(provider) });
  const [account] = await wallet.requestAddresses();
  const current = await wallet.getChainId();
  return {
    account: account as Address,
    onChain: current === chainId,
    wallet,
    reader: createPublicClient({ transport: custom(provider), pollingInterval: 500 }),
    switchChain: () => wallet.switchChain({ id: chainId }),
  };
}

/** The customer's browser wallet (the pay page's EIP-6963 discovery); null when there is none. */
export async function connectWallet(chainId: number) {
  const provider: EIP1193Provider | undefined = browserWallet();
  if (!provider) return null;
  return walletOn(provider, chainId);
}

export type ConnectedWallet = Awaited<ReturnType<typeof walletOn>>;
