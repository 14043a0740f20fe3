import "server-only";
import { listBlockchains } from "@/lib/chains/catalog";
import { providerHealth } from "@/lib/chains/clients";
import type { ProviderHealth } from "@/lib/chains/provider-pool";

/**
 * One RPC provider of a chain as the dashboard's status section shows it: by its place in the
 * chain's list, never by its address. Every merchant sees the dashboard, and a provider's host can
 * name the operator's account with it (QuickNode's do); the operator reads hosts in /api/metrics.
 */
export interface ProviderStatusRow {
  key: string;
  chain: string;
  provider: string;
  /** "in use", or why and until when it is put aside; "not used yet" before this process called the chain. */
  state: string;
  aside: boolean;
  errorRate: string;
  latency: string;
  headLag: string;
}

/** Every configured chain's providers, with the health this process's clients measured. */
export function providerStatus(now = Date.now()): ProviderStatusRow[] {
  const health = new Map<string, ProviderHealth[]>();
  for (const entry of providerHealth()) health.set(entry.chain, [...(health.get(entry.chain) ?? []), ...entry.providers]);
  return listBlockchains()
    .filter((chain) => chain.rpcUrls.length > 0)
    .flatMap((chain) => {
      const providers = health.get(chain.slug);
      if (!providers)
        return [
          {
            key: `${chain.slug}:-`,
            chain: chain.name,
            provider: `${chain.rpcUrls.length} configured`,
            state: "not used yet",
            aside: false,
            errorRate: "–",
            latency: "–",
            headLag: "–",
          },
        ];
      return providers.map((p, index) => ({
        key: `${chain.slug}:${index + 1}`,
        chain: chain.name,
        provider: `Provider ${index + 1} of ${providers.length}`,
        state: p.asideUntil === null ? "in use" : `set aside (${p.asideReason ?? "failing"}) for ${Math.max(1, Math.ceil((p.asideUntil - now) / 1000))} s`,
        aside: p.asideUntil !== null,
        errorRate: `${(p.errorRate * 100).toFixed(0)} %`,
        latency: p.latencyMs === null ? "–" : `${p.latencyMs.toFixed(0)} ms`,
        headLag: p.headLag === null ? "–" : `${p.headLag} blocks`,
      }));
    });
}
