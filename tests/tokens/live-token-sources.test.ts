/**
 * The live catalog's tokens are exactly the sourced table (lib/tokens/live-token-sources.ts):
 * address (EIP-55 checksummed), decimals, EIP-3009 and built-in feed (pair and address) of each, and
 * every live token has an entry with the issuer's page it was read from and, for every entry made
 * since the table kept them, the issuer's text showing its address and decimals. Gasless payments
 * exist exactly for the tokens with EIP-3009: Circle's USDC and EURC, never USDT, DAI or USDS.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { getAddress } from "viem";
import { candidates, liveTokenSources } from "@/lib/tokens/live-token-sources";

async function catalog(mode: "live" | "sandbox") {
  vi.stubEnv("GATEWAY_MODE", mode);
  vi.stubEnv("DEPOSIT_FACTORIES", undefined);
  vi.stubEnv("PRICE_FEEDS", undefined);
  vi.resetModules();
  return import("@/lib/chains/catalog");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const byKey = <T extends { blockchain: string; symbol: string }>(list: T[]) =>
  [...list].sort((a, b) => `${a.blockchain}:${a.symbol}`.localeCompare(`${b.blockchain}:${b.symbol}`));

describe("live tokens", () => {
  test("each live token matches its sourced entry, and each entry is live", async () => {
    const { listBlockchains } = await catalog("live");
    const live = listBlockchains().flatMap((chain) =>
      chain.tokens
        .filter((t) => t.address !== null)
        .map((t) => {
          const usdPair = `${t.symbol}/USD`;
          const feed = chain.priceFeeds[usdPair];
          return {
            blockchain: chain.slug,
            symbol: t.symbol,
            address: t.address!,
            decimals: t.decimals,
            eip3009: t.eip3009 !== null,
            feed: feed ? usdPair : null,
            feedAddress: feed?.address ?? null,
          };
        }),
    );
    const table = liveTokenSources.map(({ blockchain, symbol, address, decimals, eip3009, feed, feedAddress }) => ({
      blockchain,
      symbol,
      address: getAddress(address),
      decimals,
      eip3009,
      feed,
      feedAddress: feedAddress === null ? null : getAddress(feedAddress),
    }));
    expect(byKey(live)).toEqual(byKey(table));
  });

  test("every entry carries its source, written checksummed, and the new ones the issuer's words", () => {
    for (const entry of liveTokenSources) {
      // written as the issuer prints it: EIP-55 checksummed, not lower case
      expect(entry.address).toBe(getAddress(entry.address));
      if (entry.feedAddress !== null) expect(entry.feedAddress).toBe(getAddress(entry.feedAddress));
      expect(entry.feed === null).toBe(entry.feedAddress === null);
      expect(entry.feed === null).toBe(entry.feedSource === null);
      expect(entry.source).toMatch(
        /^https:\/\/(developers\.circle\.com|tether\.to|docs\.wallet\.tether\.io|docs\.sky\.money|developers\.sky\.money|github\.com\/makerdao)\//,
      );
      expect(entry.behaviour.length).toBeGreaterThan(20);
      if (entry.symbol !== "USDC") {
        expect(entry.quote, `${entry.blockchain} ${entry.symbol}`).not.toBeNull();
        expect(entry.quote).toContain(entry.address);
        expect(entry.quote).toContain(String(entry.decimals));
      }
    }
    // A token is live on a chain or listed as a candidate with what is missing, never silently absent.
    for (const symbol of ["USDT", "DAI / USDS"]) expect(candidates.map((c) => c.symbol)).toContain(symbol);
  });

  test("gasless payments exactly for the EIP-3009 tokens: USDC and EURC, not USDT, DAI or USDS", async () => {
    const { listBlockchains } = await catalog("live");
    const gasless = new Set(listBlockchains().flatMap((chain) => chain.tokens.filter((t) => t.eip3009).map((t) => t.symbol)));
    expect([...gasless].sort()).toEqual(["EURC", "USDC"]);
    for (const entry of liveTokenSources) expect(entry.eip3009).toBe(entry.symbol === "USDC" || entry.symbol === "EURC");
    // Tether's approve quirk goes live with the token: payouts reset an allowance to 0 first.
    const liveUsdt = listBlockchains().flatMap((chain) => chain.tokens.filter((t) => t.symbol === "USDT"));
    expect(liveUsdt.length).toBeGreaterThan(0);
    for (const token of liveUsdt) expect(token.approveFromZero).toBe(true);
    const { listBlockchains: sandbox } = await catalog("sandbox");
    for (const chain of sandbox()) {
      const usdt = chain.tokens.find((t) => t.symbol === "USDT");
      expect(usdt?.eip3009).toBeNull();
      expect(usdt?.approveFromZero).toBe(true);
      expect(chain.tokens.find((t) => t.symbol === "USDC")?.eip3009).not.toBeNull();
    }
  });
});
