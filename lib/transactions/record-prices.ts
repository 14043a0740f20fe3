import "server-only";
import type { PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import type { Db } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { log } from "@/lib/log";
import { displayRate } from "@/lib/pricing/convert";
import { rateSourceOf, type RateSource } from "@/lib/pricing/lock-price";
import { readFeed, type FeedReading } from "@/lib/pricing/price-feeds";
import { findUnpricedTransfers, setTransferPrices } from "./queries";

/** Transfers priced per pass: a chain's new transfers since the last tick, never its history. */
const batchSize = 200;
/**
 * How long a transfer waits for a readable feed (an outage, a stale answer): after that it is
 * recorded without a price, since a later price would not be the one when it arrived.
 */
const priceWindowMs = 60 * 60 * 1000;

/** One feed's reading, or why there is none: "none" (no feed for the pair on the chain), "retry" (not readable now). */
async function readPair(chain: Blockchain, pair: string, now: Date, client: PublicClient): Promise<FeedReading | "none" | "retry"> {
  if (!chain.priceFeeds[pair]) return "none";
  try {
    return await readFeed(chain, pair, now, client);
  } catch (error) {
    if (error instanceof ApiError && error.code === "UNSUPPORTED_PRICE_CURRENCY") return "none";
    return "retry";
  }
}

/**
 * Records the price of each transfer of the chain detected since the last pass (docs/design/payments.md
 * › Prices of transfers): US dollars per whole unit of its token and of the chain's native coin (its
 * gas), read from the chain's own feeds, with the feed answers. Exports value a transfer whose order
 * has no locked rate at this price. Run once per lifecycle pass, right after the scan that recorded
 * the transfers; a feed that cannot be read now is tried again for an hour.
 */
export async function recordTransferPrices(db: Db, chain: Blockchain, client: PublicClient, now: Date): Promise<number> {
  const unpriced = await findUnpricedTransfers(db, chain.id, batchSize);
  if (unpriced.length === 0) return 0;
  const nativePair = `${chain.nativeCurrency.symbol.toUpperCase()}/USD`;
  const pairs = [...new Set([nativePair, ...unpriced.map((t) => `${t.currency.toUpperCase()}/USD`)])];
  const readings = new Map(await Promise.all(pairs.map(async (pair) => [pair, await readPair(chain, pair, now, client)] as const)));
  const native = readings.get(nativePair);
  let priced = 0;
  for (const transfer of unpriced) {
    const own = readings.get(`${transfer.currency.toUpperCase()}/USD`);
    const waiting = (own === "retry" || native === "retry") && now.getTime() - transfer.createdAt.getTime() < priceWindowMs;
    if (waiting) continue;
    const reading = (r: typeof own) => (r && r !== "none" && r !== "retry" ? r : null);
    const sources: RateSource[] = [reading(own), reading(native)].filter((r): r is FeedReading => r !== null).map(rateSourceOf);
    await setTransferPrices(db, transfer.id, {
      usdRate: reading(own) ? displayRate(reading(own)!, null) : null,
      nativeUsdRate: reading(native) ? displayRate(reading(native)!, null) : null,
      usdRateSource: sources.length ? [...new Map(sources.map((s) => [s.pair, s])).values()] : null,
      pricedAt: now,
    });
    priced++;
  }
  if (priced < unpriced.length) log.warn("transfer prices waiting for a feed", { chain: chain.slug, waiting: unpriced.length - priced });
  return priced;
}
