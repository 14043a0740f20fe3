"use client";

import { createPublicClient, createWalletClient, custom, type Address, type EIP1193Provider } from "viem";
import { browserWallet } from "@/components/pay/browser-wallet";

/** Why a wallet step stopped, for the page's words: the customer said no, or anything else. */
export type WalletFailure = "cancelled" | "failed";

export function walletFailure(error: unknown): WalletFailure {
  const code = (error as { code?: number; cause?: { code?: number } })?.code ?? (error as { cause?: { code?: number } })?.cause?.code;
  const name = (error as { name?: string })?.name ?? "";
  return code === 4001 || name === "UserRejectedRequestError" ? "cancelled" : "failed";
}

/**
 * The customer's browser wallet (the pay page's EIP-6963 discovery) as viem clients: asked for its
 * account, and on the subscription's chain (switched when it is elsewhere). Null when there is none.
 */
export async function connectWallet(chainId: number) {
  const provider: EIP1193Provider | undefined = browserWallet();
  if (!provider) return null;
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

export type ConnectedWallet = NonNullable<Awaited<ReturnType<typeof connectWallet>>>;
