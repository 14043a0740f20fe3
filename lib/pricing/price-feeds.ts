import "server-only";
import { parseAbi, type Address, type PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/log";
import type { FeedAnswer } from "./convert";

/**
 * The read side of Chainlink's AggregatorV3Interface, plus the proxy's current aggregator and that
 * aggregator's circuit-breaker bounds (OCR aggregators have them; a feed without them is checked without).
 */
export const aggregatorV3Abi = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
  "function getRoundData(uint80 roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
  "function aggregator() view returns (address)",
  "function minAnswer() view returns (int192)",
  "function maxAnswer() view returns (int192)",
]);

/**
 * The most a feed's answer may move from its previous round, in percent. Chainlink's USD feeds
 * update on a 0.5–2 % deviation or a heartbeat, so a round that moves further is a broken or
 * manipulated feed, not a market.
 */
export const maxRoundDeviationPercent = 25n;

/** One feed answer as read, and where it came from (stored on the order as its rate source). */
export interface FeedReading extends FeedAnswer {
  pair: string;
  address: Address;
  roundId: bigint;
  updatedAt: Date;
}

type Round = readonly [bigint, bigint, bigint, bigint, bigint];

export interface RawFeed {
  blockTimestamp: bigint;
  round: Round;
  decimals: number;
  previous: Round | null;
  bounds: { min: bigint; max: bigint } | null;
}

/** Everything the checks need, read at one block so the round and the block clock agree. */
async function readRawFeed(rpc: PublicClient, address: Address): Promise<RawFeed> {
  const block = await rpc.getBlock({ blockTag: "latest" });
  const at = { address, abi: aggregatorV3Abi, blockNumber: block.number } as const;
  const [round, decimals, aggregator] = await Promise.all([
    rpc.readContract({ ...at, functionName: "latestRoundData" }),
    rpc.readContract({ ...at, functionName: "decimals" }),
    rpc.readContract({ ...at, functionName: "aggregator" }).catch(() => null),
  ]);
  const roundId = round[0];
  const [previous, min, max] = await Promise.all([
    // The first round of a feed (or of a proxy's phase) has no previous round to compare with.
    roundId > 1n ? rpc.readContract({ ...at, functionName: "getRoundData", args: [roundId - 1n] }).catch(() => null) : Promise.resolve(null),
    aggregator ? rpc.readContract({ ...at, address: aggregator, functionName: "minAnswer" }).catch(() => null) : Promise.resolve(null),
    aggregator ? rpc.readContract({ ...at, address: aggregator, functionName: "maxAnswer" }).catch(() => null) : Promise.resolve(null),
  ]);
  return { blockTimestamp: block.timestamp, round, decimals, previous, bounds: min !== null && max !== null ? { min, max } : null };
}

/** Why an answer is not usable, or null when it is. */
export function feedAnswerProblem(raw: RawFeed): string | null {
  const [roundId, answer, , updatedAt, answeredInRound] = raw.round;
  if (answer <= 0n || updatedAt === 0n) return "has no valid answer";
  if (answeredInRound < roundId) return `answered round ${roundId} with the answer of round ${answeredInRound}`;
  if (updatedAt > raw.blockTimestamp) return "reports an update after the block it was read at (a timestamp in the future)";
  // Chainlink's aggregators clamp to their bounds, so an answer at a bound is not a price.
  if (raw.bounds && (answer <= raw.bounds.min || answer >= raw.bounds.max))
    return `answered ${answer}, at or beyond its bounds [${raw.bounds.min}, ${raw.bounds.max}]`;
  const previousAnswer = raw.previous?.[1] ?? 0n;
  if (previousAnswer > 0n) {
    const change = answer > previousAnswer ? answer - previousAnswer : previousAnswer - answer;
    if (change * 100n > previousAnswer * maxRoundDeviationPercent) {
      return `moved from ${previousAnswer} to ${answer} in one round (more than ${maxRoundDeviationPercent} %)`;
    }
  }
  return null;
}

/**
 * Reads `pair` ("ETH/USD") from the chain's feed. Throws UNSUPPORTED_PRICE_CURRENCY when the chain
 * has no such feed, PRICE_FEED_UNAVAILABLE when it cannot be read or its answer fails a sanity check
 * (≤ 0, outside the aggregator's min/max answer, more than maxRoundDeviationPercent away from the
 * previous round, updated after the block it was read at, or carried over from an older round), and
 * PRICE_FEED_STALE when its last update is older than the feed's bound.
 */
export async function readFeed(chain: Blockchain, pair: string, now: Date, client?: PublicClient): Promise<FeedReading> {
  const feed = chain.priceFeeds[pair];
  if (!feed) throw new ApiError("UNSUPPORTED_PRICE_CURRENCY", `No ${pair} price feed is configured on ${chain.slug}, so this order cannot be priced that way.`);
  let raw: RawFeed;
  try {
    raw = await readRawFeed(client ?? chainClient(chain), feed.address);
  } catch (error) {
    log.warn("price feed read failed", {
      chain: chain.slug,
      pair,
      feed: feed.address,
      error: error instanceof Error ? error.message.slice(0, 200) : String(error),
    });
    throw new ApiError("PRICE_FEED_UNAVAILABLE", `The ${pair} price feed on ${chain.slug} could not be read; try again shortly.`);
  }
  const problem = feedAnswerProblem(raw);
  if (problem) {
    log.warn("price feed answer refused", { chain: chain.slug, pair, feed: feed.address, problem });
    throw new ApiError("PRICE_FEED_UNAVAILABLE", `The ${pair} price feed on ${chain.slug} ${problem}; no rate can be locked from it.`);
  }
  const [roundId, answer, , updatedAtSeconds] = raw.round;
  const decimals = raw.decimals;
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
