import "server-only";
import { createPublicClient, defineChain, type PublicClient, type Transport } from "viem";
import { env } from "@/lib/env";
import type { Blockchain } from "./catalog";
import { createProviderPool, type ProviderHealth, type ProviderPool, type ProviderPoolOptions } from "./provider-pool";

interface PooledClient {
  key: string;
  client: PublicClient;
  pool: ProviderPool;
}

const holder = globalThis as unknown as { __gatewayChainClients?: Map<string, PooledClient> };

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

/**
 * How the gateway treats a chain's providers: the request budget on live networks and public
 * testnets (the local devnet has no limits to respect), JSON-RPC batching of concurrent calls.
 */
export function providerPoolOptions(chain: Blockchain): ProviderPoolOptions {
  return { requestsPerSecond: chain.isDevnet ? Infinity : env.RPC_PROVIDER_REQUESTS_PER_SECOND, timeoutMs: 10_000, batch: true };
}

/** A public client for a chain; `transport` lets benchmarks and tests wrap the RPC (e.g. to count calls, or a pool of their own). */
export function createChainClient(chain: Blockchain, transport?: Transport): PublicClient {
  if (chain.rpcUrls.length === 0 && !transport) throw new Error(`No RPC URL configured for ${chain.slug}`);
  return createPublicClient({
    chain: viemChain(chain),
    transport: transport ?? createProviderPool(chain.rpcUrls, providerPoolOptions(chain)).transport,
    // the scanner asks for fresh heads itself
    cacheTime: 0,
  }) as PublicClient;
}

/** The process-wide client for a chain's current providers (one provider pool per chain, kept while its URLs stay). */
export function chainClient(chain: Blockchain): PublicClient {
  const clients = (holder.__gatewayChainClients ??= new Map());
  const key = chain.rpcUrls.join(",");
  let entry = clients.get(chain.slug);
  if (!entry || entry.key !== key) {
    if (chain.rpcUrls.length === 0) throw new Error(`No RPC URL configured for ${chain.slug}`);
    const pool = createProviderPool(chain.rpcUrls, providerPoolOptions(chain));
    entry = { key, pool, client: createChainClient(chain, pool.transport) };
    clients.set(chain.slug, entry);
  }
  return entry.client;
}

/** Each chain's providers as this process's clients see them (chains not used yet in this process are absent). */
export function providerHealth(): Array<{ chain: string; providers: ProviderHealth[] }> {
  const clients = holder.__gatewayChainClients ?? new Map<string, PooledClient>();
  return [...clients.entries()].map(([chain, entry]) => ({ chain, providers: entry.pool.health() }));
}
