/**
 * The live catalog's tokens are exactly the sourced table (lib/tokens/live-token-sources.ts):
 * address, decimals, EIP-3009 and built-in feed of each, and every live token has an entry with
 * the issuer's page it was read from.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { getAddress } from "viem";
import { liveTokenSources } from "@/lib/tokens/live-token-sources";

async function liveCatalog() {
  vi.stubEnv("GATEWAY_MODE", "live");
  vi.stubEnv("DEPOSIT_FACTORIES", undefined);
  vi.stubEnv("PRICE_FEEDS", undefined);
  vi.resetModules();
  return import("@/lib/chains/catalog");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("live tokens", () => {
  test("each live token matches its sourced entry, and each entry is live", async () => {
    const { listBlockchains } = await liveCatalog();
    const live = listBlockchains().flatMap((chain) =>
      chain.tokens
        .filter((t) => t.address !== null)
        .map((t) => {
          const usdPair = `${t.symbol}/USD`;
          return {
            blockchain: chain.slug,
            symbol: t.symbol,
            address: t.address!,
            decimals: t.decimals,
            eip3009: t.eip3009 !== null,
            feed: chain.priceFeeds[usdPair] ? usdPair : null,
          };
        }),
    );
    const table = liveTokenSources.map(({ blockchain, symbol, address, decimals, eip3009, feed }) => ({
      blockchain,
      symbol,
      address: getAddress(address),
      decimals,
      eip3009,
      feed,
    }));
    expect(live).toEqual(table);
    for (const entry of liveTokenSources) {
      expect(entry.source).toMatch(/^https:\/\/(developers\.circle\.com|tether\.to|docs\.sky\.money)\//);
      expect(entry.behaviour.length).toBeGreaterThan(20);
    }
  });
});
