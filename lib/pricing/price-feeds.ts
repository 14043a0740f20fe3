import "server-only";
import type { Address, PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/log";
import type { FeedAnswer } from "./convert";

/** The read side of Chainlink's AggregatorV3Interface. */
export const aggregatorV3Abi = [
  { type: "function", name: "decimals", stateMutability: "view", inputs: [], outputs: [{ type: "uint8" }] },
  {
    type: "function",
    name: "latestRoundData",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "roundId", type: "uint80" },
      { name: "answer", type: "int256" },
      { name: "startedAt", type: "uint256" },
      { name: "updatedAt", type: "uint256" },
      { name: "answeredInRound", type: "uint80" },
    ],
  },
] as const;

/** One feed answer as read, and where it came from (stored on the order as its rate source). */
export interface FeedReading extends FeedAnswer {
  pair: string;
  address: Address;
  roundId: bigint;
  updatedAt: Date;
}

/**
 * Reads `pair` ("ETH/USD") from the chain's feed. Throws UNSUPPORTED_PRICE_CURRENCY when the chain
 * has no such feed, PRICE_FEED_UNAVAILABLE when it cannot be read or answers nonsense (≤ 0), and
 * PRICE_FEED_STALE when its last update is older than the feed's bound.
 */
export async function readFeed(chain: Blockchain, pair: string, now: Date, client?: PublicClient): Promise<FeedReading> {
  const feed = chain.priceFeeds[pair];
  if (!feed) throw new ApiError("UNSUPPORTED_PRICE_CURRENCY", `No ${pair} price feed is configured on ${chain.slug}, so this order cannot be priced that way.`);
  let round: readonly [bigint, bigint, bigint, bigint, bigint];
  let decimals: number;
  try {
    const rpc = client ?? chainClient(chain);
    // The pending block's clock on the devnet, the latest state elsewhere: both read the newest answer.
    [round, decimals] = await Promise.all([
      rpc.readContract({ address: feed.address, abi: aggregatorV3Abi, functionName: "latestRoundData" }),
      rpc.readContract({ address: feed.address, abi: aggregatorV3Abi, functionName: "decimals" }),
    ]);
  } catch (error) {
    log.warn("price feed read failed", { chain: chain.slug, pair, feed: feed.address, error: error instanceof Error ? error.message.slice(0, 200) : String(error) });
    throw new ApiError("PRICE_FEED_UNAVAILABLE", `The ${pair} price feed on ${chain.slug} could not be read; try again shortly.`);
  }
  const [roundId, answer, , updatedAtSeconds] = round;
  if (answer <= 0n || updatedAtSeconds === 0n) {
    throw new ApiError("PRICE_FEED_UNAVAILABLE", `The ${pair} price feed on ${chain.slug} has no valid answer.`);
  }
  const updatedAt = new Date(Number(updatedAtSeconds) * 1000);
  const ageSeconds = (now.getTime() - updatedAt.getTime()) / 1000;
  if (ageSeconds > feed.maxAgeSeconds) {
    throw new ApiError(
      "PRICE_FEED_STALE",
      `The ${pair} price feed on ${chain.slug} was last updated ${Math.floor(ageSeconds)} s ago (more than ${feed.maxAgeSeconds} s); no rate can be locked now.`,
    );
  }
  return { pair, address: feed.address, roundId, answer, decimals, updatedAt };
}
