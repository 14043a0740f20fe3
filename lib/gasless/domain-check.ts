import "server-only";
import { domainSeparator, parseAbi, type Address, type PublicClient } from "viem";
import type { Blockchain, TokenInfo } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { describeError, log } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";

const domainSeparatorAbi = parseAbi(["function DOMAIN_SEPARATOR() view returns (bytes32)"]);

/** A mismatch is read again after this long (a token upgrade may change its name); a match holds for the process. */
const mismatchRecheckMs = 10 * 60_000;

const checks = processSingleton("gaslessDomains", () => new Map<string, { matches: boolean; at: number }>());

/**
 * Whether the token's own DOMAIN_SEPARATOR() is the EIP-712 domain the catalog signs with (its
 * `eip3009` name and version, the chain's id, the token's address). Circle's FiatTokenV2_2 builds
 * it from `name()` and "2"; a wrong name in the catalog would have wallets sign what the token
 * refuses, so the payment page offers "Pay without gas" only for a token that matches. Read once
 * per process per token; a read that fails is not remembered (and counts as no match this time).
 */
export async function eip3009DomainMatches(
  chain: Blockchain,
  token: TokenInfo & { address: Address; eip3009: NonNullable<TokenInfo["eip3009"]> },
  client?: PublicClient,
  now = Date.now(),
): Promise<boolean> {
  const key = `${chain.chainId}:${token.address.toLowerCase()}:${token.eip3009.name}:${token.eip3009.version}`;
  const known = checks.get(key);
  if (known && (known.matches || now - known.at < mismatchRecheckMs)) return known.matches;
  const expected = domainSeparator({
    domain: { name: token.eip3009.name, version: token.eip3009.version, chainId: chain.chainId, verifyingContract: token.address },
  });
  let onChain: string;
  try {
    onChain = await (client ?? chainClient(chain)).readContract({ address: token.address, abi: domainSeparatorAbi, functionName: "DOMAIN_SEPARATOR" });
  } catch (error) {
    log.warn("gasless: DOMAIN_SEPARATOR() could not be read", { chain: chain.slug, token: token.symbol, ...describeError(error) });
    return false;
  }
  const matches = onChain.toLowerCase() === expected.toLowerCase();
  if (!matches)
    log.warn("gasless: the token's EIP-712 domain is not the catalog's; no gasless payments in it", {
      chain: chain.slug,
      token: token.symbol,
      name: token.eip3009.name,
      version: token.eip3009.version,
    });
  checks.set(key, { matches, at: now });
  return matches;
}
