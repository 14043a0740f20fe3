/**
 * "Pay without gas" is offered in a token's EIP-712 domain only once the token's own
 * DOMAIN_SEPARATOR() agrees with it (lib/gasless/domain-check.ts): the devnet USDC (FiatTokenV2's
 * domain, "USD Coin", "2") matches; the same token under another name (as a wrong EURC name would
 * be) does not, and a token without DOMAIN_SEPARATOR() (USDT) never does.
 */
import { describe, expect, test } from "vitest";
import { createPublicClient, http } from "viem";
import { devnetContracts, findBlockchainBySlug } from "@/lib/chains/catalog";
import { devnetChain } from "@/lib/chains/devnet";
import { eip3009DomainMatches } from "@/lib/gasless/domain-check";
import { setupTestDevnet } from "../helpers/devnet";

const net = setupTestDevnet();

describe("EIP-3009 domain check", () => {
  test("the token's DOMAIN_SEPARATOR() decides, once per process for a match", async () => {
    const chain = findBlockchainBySlug("ethereum")!;
    const client = createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl) });
    const usdc = { symbol: "USDC", address: devnetContracts.USDC, decimals: 6, eip3009: { name: "USD Coin", version: "2" } };
    expect(await eip3009DomainMatches(chain, usdc, client)).toBe(true);
    expect(await eip3009DomainMatches(chain, { ...usdc, eip3009: { name: "EURC", version: "2" } }, client)).toBe(false);
    expect(await eip3009DomainMatches(chain, { ...usdc, eip3009: { name: "USD Coin", version: "1" } }, client)).toBe(false);
    // USDT has no DOMAIN_SEPARATOR(): the read fails, so no gasless offer.
    expect(await eip3009DomainMatches(chain, { ...usdc, symbol: "USDT", address: devnetContracts.USDT }, client)).toBe(false);
    // A match is remembered: no second read (a client that cannot connect would fail it).
    const dead = createPublicClient({ chain: devnetChain, transport: http("http://127.0.0.1:9") });
    expect(await eip3009DomainMatches(chain, usdc, dead)).toBe(true);
  });
});
