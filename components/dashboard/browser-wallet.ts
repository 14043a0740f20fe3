import type { EIP1193Provider } from "viem";

/** The browser wallet: `window.ethereum`, or else the first wallet announcing itself through EIP-6963. */
export function findBrowserWallet(): EIP1193Provider | undefined {
  const injected = (window as unknown as { ethereum?: EIP1193Provider }).ethereum;
  if (injected) return injected;
  let announced: EIP1193Provider | undefined;
  const listener = (event: Event) => {
    announced ??= (event as CustomEvent<{ provider: EIP1193Provider }>).detail?.provider;
  };
  window.addEventListener("eip6963:announceProvider", listener);
  // Wallets answer the request synchronously, inside dispatchEvent.
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  window.removeEventListener("eip6963:announceProvider", listener);
  return announced;
}
