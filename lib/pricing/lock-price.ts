import "server-only";
import type { Blockchain, TokenInfo } from "@/lib/chains/catalog";
import { ApiError, validationError } from "@/lib/http/errors";
import { displayRate, fiatCurrencies, fiatToTokenUnits, isFiatCurrency } from "./convert";
import { readFeed, type FeedReading } from "./price-feeds";

/** One feed answer a rate was computed from, as stored on the order and returned in `rate_source`. */
export interface RateSource {
  pair: string;
  feed_address: string;
  round_id: string;
  answer: string;
  decimals: number;
  updated_at: string;
}

export interface LockedPrice {
  /** What the customer pays, in token base units. */
  amount: bigint;
  /** The price as given, written with the currency's minor units ("19.90"). */
  priceAmount: string;
  priceCurrency: string;
  rate: string;
  rateSource: RateSource[];
}

const priceText = /^(\d{1,15})(?:\.(\d+))?$/;

function parsePrice(text: unknown, minorUnits: number, currency: string): { units: bigint; canonical: string } {
  if (typeof text !== "string") throw validationError({ price_amount: ['Must be a decimal number written as a string, e.g. "19.90".'] });
  const match = priceText.exec(text);
  if (!match) throw validationError({ price_amount: ['Must be a positive decimal number such as "19.90".'] });
  const fraction = match[2] ?? "";
  if (fraction.length > minorUnits) throw validationError({ price_amount: [`${currency} has ${minorUnits} decimal places at most.`] });
  const units = BigInt(match[1]! + fraction.padEnd(minorUnits, "0"));
  if (units === 0n) throw validationError({ price_amount: ["Must be greater than zero."] });
  const digits = units.toString().padStart(minorUnits + 1, "0");
  const canonical = minorUnits === 0 ? digits : `${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}`;
  return { units, canonical };
}

/** A feed reading as stored beside a rate (an order's `rate_source`, a transfer's recorded price). */
export const rateSourceOf = (reading: FeedReading): RateSource => ({
  pair: reading.pair,
  feed_address: reading.address,
  round_id: reading.roundId.toString(),
  answer: reading.answer.toString(),
  decimals: reading.decimals,
  updated_at: reading.updatedAt.toISOString(),
});

/** What a fiat price needs of a chain: `<TOKEN>/USD`, and `<FIAT>/USD` unless the price is in USD. */
function feedPairsFor(token: TokenInfo, priceCurrency: string): string[] {
  return [`${token.symbol.toUpperCase()}/USD`, ...(priceCurrency === "USD" ? [] : [`${priceCurrency}/USD`])];
}

/**
 * The checks of a fiat price that need no feed reading: a supported currency, a price within its
 * minor units and size, and the feeds the conversion needs configured on the chain. Order creation
 * runs them before reading the feeds; a payment link runs them at save for each of its options, so
 * it cannot offer a price every one of its orders would refuse.
 */
export function checkFiatPrice(chain: Blockchain, token: TokenInfo, priceAmount: unknown, priceCurrencyInput: string) {
  const priceCurrency = priceCurrencyInput.trim().toUpperCase();
  if (!isFiatCurrency(priceCurrency)) {
    throw new ApiError(
      "UNSUPPORTED_PRICE_CURRENCY",
      `Orders cannot be priced in '${priceCurrencyInput}'; supported: ${Object.keys(fiatCurrencies).join(", ")}.`,
    );
  }
  const minorUnits = fiatCurrencies[priceCurrency];
  const price = parsePrice(priceAmount, minorUnits, priceCurrency);
  for (const pair of feedPairsFor(token, priceCurrency)) {
    if (!chain.priceFeeds[pair])
      throw new ApiError("UNSUPPORTED_PRICE_CURRENCY", `No ${pair} price feed is configured on ${chain.slug}, so this order cannot be priced that way.`);
  }
  return { priceCurrency, minorUnits, price };
}

/**
 * Locks the rate for a fiat-priced order: reads `<TOKEN>/USD` (and `<FIAT>/USD` unless the price is
 * in USD) from the order's chain, refuses stale feeds, and converts the price into the token amount,
 * rounded up to the token's smallest unit. The amount is then fixed for the order's lifetime.
 */
export async function lockFiatPrice(chain: Blockchain, token: TokenInfo, priceAmount: unknown, priceCurrencyInput: string, now: Date): Promise<LockedPrice> {
  const { priceCurrency, minorUnits, price } = checkFiatPrice(chain, token, priceAmount, priceCurrencyInput);
  const [tokenUsd, fiatUsd] = await Promise.all([
    readFeed(chain, `${token.symbol.toUpperCase()}/USD`, now),
    priceCurrency === "USD" ? Promise.resolve(null) : readFeed(chain, `${priceCurrency}/USD`, now),
  ]);
  const amount = fiatToTokenUnits(price.units, minorUnits, tokenUsd, fiatUsd, token.decimals);
  return {
    amount,
    priceAmount: price.canonical,
    priceCurrency,
    rate: displayRate(tokenUsd, fiatUsd),
    rateSource: [tokenUsd, ...(fiatUsd ? [fiatUsd] : [])].map(rateSourceOf),
  };
}
