import { formatAmount } from "@/lib/money/amounts";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";
import type { RateSource } from "@/lib/pricing/lock-price";

/**
 * The fiat value of a token amount at a rate (fiat units per whole token), exactly, rounded half up
 * to the currency's minor units ("12.50"). null when the rate or the currency is unknown.
 */
export function fiatValue(units: bigint, tokenDecimals: number, rate: string | null, fiatCurrency: string | null): string | null {
  if (!rate || !fiatCurrency || !isFiatCurrency(fiatCurrency)) return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!match) return null;
  const rateFraction = match[2] ?? "";
  const rateUnits = BigInt(match[1]! + rateFraction);
  const minor = fiatCurrencies[fiatCurrency];
  const shift = tokenDecimals + rateFraction.length - minor;
  const product = units * rateUnits;
  const value = shift >= 0 ? (product + 10n ** BigInt(shift) / 2n) / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
  if (minor === 0) return value.toString();
  const digits = value.toString().padStart(minor + 1, "0");
  return `${digits.slice(0, -minor)}.${digits.slice(-minor)}`;
}

/** The order a movement belongs to, as much as valuing it needs. */
export interface ValuedOrder {
  blockchainId: number;
  tokenAddress: string | null;
  priceCurrency: string | null;
  rate: string | null;
  rateSource: unknown;
}

/** The price recorded when a transfer was detected (lib/transactions/record-prices.ts). */
export interface DetectedPrice {
  usdRate: string | null;
  nativeUsdRate: string | null;
  usdRateSource: unknown;
  pricedAt: Date | null;
}

/** What a movement is worth and why: the rate, its currency, where it came from and when it held. */
export interface Valuation {
  fiatCurrency: string;
  rate: string;
  /**
   * `order_locked_rate`: the rate locked when the order was created; `detected_price`: the feed's price
   * when the transfer was detected; `batch_locked_rate`: the rate a payout batch locked when its legs were saved;
   * `subscription_locked_rate`: the rate a fiat-priced subscription plan's charge locked for its period.
   */
  basis: "order_locked_rate" | "detected_price" | "batch_locked_rate" | "subscription_locked_rate";
  /** The feeds behind the rate ("USDC/USD round 18446744073709552000 at 0x…"). */
  feeds: string;
  /** When the feed last updated the answer the rate came from (ISO 8601), else when it was read. */
  at: string | null;
}

const sourcesOf = (value: unknown): RateSource[] => (Array.isArray(value) ? (value as RateSource[]) : []);
const feedsText = (sources: RateSource[]) => sources.map((s) => `${s.pair} round ${s.round_id} at ${s.feed_address}`).join("; ");

/**
 * How the exports value money of an asset (docs/design/data-and-counts.md › Exports): at the order's
 * locked rate when it is the order's own asset and the order was priced in fiat; else at the price
 * recorded when its transfer was detected, in US dollars; else unknown (no feed on that chain).
 */
export function valuation(
  order: ValuedOrder | null,
  asset: { blockchainId: number; tokenAddress: string | null },
  detected: DetectedPrice | null,
): Valuation | null {
  const ownAsset =
    order !== null && order.blockchainId === asset.blockchainId && (order.tokenAddress ?? null)?.toLowerCase() === (asset.tokenAddress ?? null)?.toLowerCase();
  if (ownAsset && order.rate && order.priceCurrency && isFiatCurrency(order.priceCurrency)) {
    const sources = sourcesOf(order.rateSource);
    return { fiatCurrency: order.priceCurrency, rate: order.rate, basis: "order_locked_rate", feeds: feedsText(sources), at: sources[0]?.updated_at ?? null };
  }
  if (detected?.usdRate) {
    const sources = sourcesOf(detected.usdRateSource);
    return {
      fiatCurrency: "USD",
      rate: detected.usdRate,
      basis: "detected_price",
      feeds: feedsText(sources.slice(0, 1)),
      at: sources[0]?.updated_at ?? detected.pricedAt?.toISOString() ?? null,
    };
  }
  return null;
}

/** Gas in the native coin's base units (18 decimals) in US dollars at the native price recorded with a transfer; null when unknown. */
export function gasInUsd(gasWei: bigint | null, nativeDecimals: number, detected: DetectedPrice | null): string | null {
  if (gasWei === null || !detected?.nativeUsdRate) return null;
  return fiatValue(gasWei, nativeDecimals, detected.nativeUsdRate, "USD");
}

/**
 * A payout batch's value: in its fiat at the rate it locked when the legs were entered in fiat, else in
 * US dollars at the token/USD feed reading it locked; else unknown.
 */
export function batchValuation(batch: {
  amountCurrency: string | null;
  rate: string | null;
  rateSource: unknown;
  rateLockedAt: Date | null;
}): Valuation | null {
  const sources = sourcesOf(batch.rateSource);
  const at = sources[0]?.updated_at ?? batch.rateLockedAt?.toISOString() ?? null;
  if (batch.amountCurrency && batch.rate && isFiatCurrency(batch.amountCurrency)) {
    return { fiatCurrency: batch.amountCurrency, rate: batch.rate, basis: "batch_locked_rate", feeds: feedsText(sources), at };
  }
  const usd = sources.find((s) => s.pair.endsWith("/USD"));
  if (!usd?.answer || usd.decimals === undefined) return null;
  return {
    fiatCurrency: "USD",
    rate: formatAmount(BigInt(usd.answer), usd.decimals),
    basis: "batch_locked_rate",
    feeds: feedsText([usd]),
    at: usd.updated_at ?? at,
  };
}

/**
 * A subscription charge's value: at the rate its period locked when the plan is priced in fiat (the
 * price the customer agreed to), else at the price recorded when the charge was booked, in US dollars.
 */
export function chargeValuation(
  charge: { priceCurrency: string | null; rate: string | null; rateSource: unknown; ratedAt: Date | null },
  detected: DetectedPrice | null,
): Valuation | null {
  if (charge.rate && charge.priceCurrency && isFiatCurrency(charge.priceCurrency)) {
    const sources = sourcesOf(charge.rateSource);
    return {
      fiatCurrency: charge.priceCurrency,
      rate: charge.rate,
      basis: "subscription_locked_rate",
      feeds: feedsText(sources),
      at: sources[0]?.updated_at ?? charge.ratedAt?.toISOString() ?? null,
    };
  }
  return valuation(null, { blockchainId: 0, tokenAddress: null }, detected);
}
