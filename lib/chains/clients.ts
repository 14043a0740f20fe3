import "server-only";
import { createPublicClient, defineChain, http, type PublicClient, type Transport } from "viem";
import type { Blockchain } from "./catalog";

const holder = globalThis as unknown as { __gatewayChainClients?: Map<string, PublicClient> };

/** viem chain definition for a catalog entry. */
export function viemChain(chain: Blockchain) {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: { default: { http: chain.rpcUrl ? [chain.rpcUrl] : [] } },
    contracts: chain.multicall3 ? { multicall3: { address: chain.multicall3 } } : undefined,
  });
}

/** A public client for a chain; `transport` lets benchmarks and tests wrap the RPC (e.g. to count calls). */
export function createChainClient(chain: Blockchain, transport?: Transport): PublicClient {
  if (!chain.rpcUrl && !transport) throw new Error(`No RPC URL configured for ${chain.slug}`);
  return createPublicClient({
    chain: viemChain(chain),
    transport: transport ?? http(chain.rpcUrl!, { retryCount: 2, timeout: 15_000 }),
    // the scanner asks for fresh heads itself
    cacheTime: 0,
  }) as PublicClient;
}

/** The process-wide client for a chain's current RPC URL. */
export function chainClient(chain: Blockchain): PublicClient {
  const clients = (holder.__gatewayChainClients ??= new Map());
  const key = `${chain.id}:${chain.rpcUrl}`;
  let client = clients.get(key);
  if (!client) {
    client = createChainClient(chain);
    clients.set(key, client);
  }
  return client;
}
