import "server-only";
import { createPublicClient, defineChain, type PublicClient, type Transport } from "viem";
import { env } from "@/lib/env";
import { processSingleton } from "@/lib/process-singleton";
import type { Blockchain } from "./catalog";
import { createProviderPool, type ProviderHealth, type ProviderPool, type ProviderPoolOptions } from "./provider-pool";

interface PooledClient {
  chain: string;
  client: PublicClient;
  pool: ProviderPool;
}

const pooledClients = () => processSingleton("chainClients", () => new Map<string, PooledClient>());

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
 * testnets (the local devnet has no limits to respect), JSON-RPC batching of concurrent calls, and
 * one budget and put-aside per provider host across chains (several chains behind one provider
 * account or proxy share its rate limit).
 */
export function providerPoolOptions(chain: Blockchain): ProviderPoolOptions {
  return { requestsPerSecond: chain.isDevnet ? Infinity : env.RPC_PROVIDER_REQUESTS_PER_SECOND, timeoutMs: 10_000, batch: true, shareHosts: true };
}

/** A chain's providers; a chain whose `rpcUrl` alone was replaced (`{ ...chain, rpcUrl }`, as tests do) uses that one. */
export function providerUrls(chain: Blockchain): string[] {
  const urls = chain.rpcUrls ?? [];
  if (chain.rpcUrl && !urls.includes(chain.rpcUrl)) return [chain.rpcUrl];
  return [...urls];
}

/** A public client for a chain; `transport` lets benchmarks and tests wrap the RPC (e.g. to count calls, or a pool of their own). */
export function createChainClient(chain: Blockchain, transport?: Transport): PublicClient {
  const urls = providerUrls(chain);
  if (urls.length === 0 && !transport) throw new Error(`No RPC URL configured for ${chain.slug}`);
  return createPublicClient({
    chain: viemChain(chain),
    transport: transport ?? createProviderPool(urls, providerPoolOptions(chain)).transport,
    // the scanner asks for fresh heads itself
    cacheTime: 0,
  }) as PublicClient;
}

/** The process-wide client for a chain's providers: one provider pool per chain and set of URLs, kept for the process. */
export function chainClient(chain: Blockchain): PublicClient {
  const clients = pooledClients();
  const urls = providerUrls(chain);
  const key = `${chain.id}:${urls.join(",")}`;
  let entry = clients.get(key);
  if (!entry) {
    if (urls.length === 0) throw new Error(`No RPC URL configured for ${chain.slug}`);
    const pool = createProviderPool(urls, providerPoolOptions(chain));
    entry = { chain: chain.slug, pool, client: createChainClient(chain, pool.transport) };
    clients.set(key, entry);
  }
  return entry.client;
}

/** Each chain's providers as this process's clients see them (chains not used yet in this process are absent). */
export function providerHealth(): Array<{ chain: string; providers: ProviderHealth[] }> {
  const clients = pooledClients();
  return [...clients.values()].map((entry) => ({ chain: entry.chain, providers: entry.pool.health() }));
}
