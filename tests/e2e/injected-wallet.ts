/**
 * A minimal EIP-1193 browser wallet for tests, installed with `page.addInitScript`: it answers
 * account and chain requests itself, forwards everything else (eth_sendTransaction included) to
 * the devnet, whose hardhat accounts are unlocked, and announces itself through EIP-6963.
 */
export interface InjectedWalletOptions {
  rpcUrl: string;
  address: string;
  chainId: number;
  /** The network the wallet starts on (default: chainId); it can switch only to chainId. */
  startChainId?: number;
  /** Refuse the first switch request (as a busy wallet would; not a user rejection), so the page is left on the wrong network. */
  failFirstSwitch?: boolean;
}

export const injectedWalletName = "E2E Wallet";

/** Runs in the page before its scripts (serialized by Playwright: no closures). */
export function installInjectedWallet({ rpcUrl, address, chainId, startChainId, failFirstSwitch }: InjectedWalletOptions) {
  const w = window as unknown as Window & { __e2eWallet?: { requests: string[]; sent: string[] } };
  const record = { requests: [] as string[], sent: [] as string[] };
  w.__e2eWallet = record;
  const listeners: Record<string, Array<(...args: unknown[]) => void>> = {};
  let currentChain = startChainId ?? chainId;
  let switchFails = failFirstSwitch === true;
  const hex = (n: number) => `0x${n.toString(16)}`;
  let id = 0;

  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      record.requests.push(method);
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return [address];
        case "eth_chainId":
          return hex(currentChain);
        case "net_version":
          return String(currentChain);
        case "wallet_switchEthereumChain": {
          const wanted = parseInt((params?.[0] as { chainId: string }).chainId, 16);
          if (switchFails) {
            switchFails = false;
            throw Object.assign(new Error("Request already pending"), { code: -32002 });
          }
          if (wanted !== chainId) throw Object.assign(new Error("Unrecognized chain ID"), { code: 4902 });
          currentChain = wanted;
          for (const fn of listeners.chainChanged ?? []) fn(hex(wanted));
          return null;
        }
        case "wallet_addEthereumChain":
          return null;
        case "wallet_requestPermissions":
        case "wallet_getPermissions":
          return [{ parentCapability: "eth_accounts", caveats: [] }];
        case "wallet_revokePermissions":
          return null;
      }
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: params ?? [] }),
      });
      const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code, data: body.error.data });
      if (method === "eth_sendTransaction") record.sent.push(body.result as string);
      return body.result;
    },
    on(event: string, fn: (...args: unknown[]) => void) {
      (listeners[event] ??= []).push(fn);
      return provider;
    },
    removeListener(event: string, fn: (...args: unknown[]) => void) {
      listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn);
      return provider;
    },
  };

  const info = {
    uuid: "6f0c2c2e-7f5e-4b8e-9d0a-3c1d2e4f5a6b",
    name: "E2E Wallet", // = injectedWalletName (the function runs in the page: no imports)
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'%3E%3Crect width='8' height='8' fill='%231d4ed8'/%3E%3C/svg%3E",
    rdns: "test.e2e.wallet",
  };
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
}
