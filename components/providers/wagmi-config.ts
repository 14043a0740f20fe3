import { defineChain, type Chain } from "viem";
import { arbitrum, arbitrumSepolia, base, baseSepolia, mainnet, optimism, optimismSepolia, polygon, polygonAmoy, sepolia } from "viem/chains";
import { createConfig, http, injected, type Config, type CreateConnectorFn } from "wagmi";

/** The chain facts the payment page passes down (from lib/chains/catalog.ts via the public order). */
export interface PayChainInfo {
  chain_id: number;
  name: string;
  native_currency: { symbol: string; name: string; decimals: number };
  /** The sandbox devnet's RPC URL; null: the chain's default public RPC. */
  rpc_url: string | null;
  explorer_url: string | null;
}

/** The networks of the catalog (live and testnet), for their default public RPCs and explorers. */
const knownChains: Chain[] = [mainnet, base, polygon, arbitrum, optimism, sepolia, baseSepolia, polygonAmoy, arbitrumSepolia, optimismSepolia];

/** The viem chain for the order's network: the known definition, with the devnet's RPC URL when one is given. */
export function viemChainFor(info: PayChainInfo): Chain {
  const known = knownChains.find((c) => c.id === info.chain_id);
  if (known && !info.rpc_url) return known;
  return defineChain({
    id: info.chain_id,
    name: info.name,
    nativeCurrency: info.native_currency,
    rpcUrls: { default: { http: info.rpc_url ? [info.rpc_url] : (known?.rpcUrls.default.http ?? []) } },
    blockExplorers: info.explorer_url ? { default: { name: "Explorer", url: info.explorer_url } } : undefined,
  });
}

/** How long WalletConnect may take to show its pairing QR code before the customer is told it cannot be reached. */
export const walletConnectPatienceMs = 15_000;

/** WalletConnect for one payment: the project id, and the shop the customer's phone wallet names. */
export interface PayWalletConnect {
  projectId: string;
  shopName: string;
}

/**
 * wagmi config for one order's chain: injected wallets (EIP-6963 discovery plus the legacy
 * window.ethereum), and WalletConnect when `walletConnect` is given (the customer chose it; its
 * connector and the provider it loads are fetched then, never in the page's first load). Built in
 * the browser only, after the customer chooses to connect.
 */
export async function createPayWagmiConfig(info: PayChainInfo, walletConnect: PayWalletConnect | null): Promise<Config> {
  const chain = viemChainFor(info);
  const connectors: CreateConnectorFn[] = [injected()];
  if (walletConnect) {
    const { walletConnect: walletConnectConnector } = await import("wagmi/connectors");
    connectors.push(
      walletConnectConnector({
        projectId: walletConnect.projectId,
        showQrModal: true,
        // The phone wallet shows who asks; Verify checks the url against this page's origin.
        metadata: {
          name: walletConnect.shopName,
          description: walletConnect.shopName,
          url: window.location.origin,
          icons: [`${window.location.origin}/icon.svg`],
        },
      }),
    );
  }
  return createConfig({
    chains: [chain],
    connectors,
    multiInjectedProviderDiscovery: true,
    transports: { [chain.id]: http(info.rpc_url ?? undefined) },
    ssr: false,
    // Nothing persisted: a payment link is a one-off visit. (With storage and reconnectOnMount off,
    // wagmi's Hydrate also clears the connection on every re-render, i.e. on every status poll.)
    storage: null,
  });
}
