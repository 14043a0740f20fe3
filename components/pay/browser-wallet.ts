"use client";

import type { EIP1193Provider } from "viem";

/** The first EIP-6963 wallet that answers (they announce synchronously), else the legacy window.ethereum. */
export function browserWallet(): EIP1193Provider | undefined {
  if (typeof window === "undefined") return undefined;
  const announced: EIP1193Provider[] = [];
  const onAnnounce = (event: Event) => announced.push((event as CustomEvent<{ provider: EIP1193Provider }>).detail.provider);
  window.addEventListener("eip6963:announceProvider", onAnnounce);
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  window.removeEventListener("eip6963:announceProvider", onAnnounce);
  return announced[0] ?? (window as unknown as { ethereum?: EIP1193Provider }).ethereum;
}

const subscribeNever = () => () => {};
const subscribeCoarsePointer = (onChange: () => void) => {
  const query = window.matchMedia("(pointer: coarse)");
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/** For useSyncExternalStore: whether a browser wallet is present (the server renders as if one were). */
export const browserWalletStore = [subscribeNever, () => browserWallet() !== undefined, () => true] as const;

/** For useSyncExternalStore: a touch screen (phones, tablets), where wallet apps open from links; false on the server. */
export const touchDeviceStore = [subscribeCoarsePointer, () => window.matchMedia("(pointer: coarse)").matches, () => false] as const;
