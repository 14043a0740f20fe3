import { formatAmount } from "@/lib/money/amounts";

/**
 * Fiat currencies an order may be priced in, with their ISO 4217 minor units. A currency other
 * than USD also needs a `<CUR>/USD` feed on the order's chain.
 */
export const fiatCurrencies = { USD: 2, EUR: 2, GBP: 2, CHF: 2, JPY: 0 } as const;
export type FiatCurrency = keyof typeof fiatCurrencies;

export function isFiatCurrency(code: string): code is FiatCurrency {
  return Object.hasOwn(fiatCurrencies, code);
}

/** A feed's answer: `answer / 10^decimals` US dollars per unit of the base asset. */
export interface FeedAnswer {
  answer: bigint;
  decimals: number;
}

/** Digits the displayed rate keeps after the point (the order amount itself is computed exactly). */
export const rateDisplayDecimals = 8;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The token amount (base units) for a fiat price, exactly, rounded up to the token's smallest
 * unit so the merchant never receives less than the price:
 *   tokens = price × (fiat/USD) ÷ (token/USD)
 * `fiatUsd` is null for USD itself. `priceUnits` is the price in the fiat's minor units.
 */
export function fiatToTokenUnits(priceUnits: bigint, fiatMinorUnits: number, tokenUsd: FeedAnswer, fiatUsd: FeedAnswer | null, tokenDecimals: number): bigint {
  const fiat = fiatUsd ?? { answer: 1n, decimals: 0 };
  const numerator = priceUnits * fiat.answer * 10n ** BigInt(tokenDecimals + tokenUsd.decimals);
  const denominator = 10n ** BigInt(fiatMinorUnits + fiat.decimals) * tokenUsd.answer;
  return ceilDiv(numerator, denominator);
}

/** The locked rate as shown: price-currency units per one whole token (token/USD ÷ fiat/USD), 8 decimals, rounded down. */
export function displayRate(tokenUsd: FeedAnswer, fiatUsd: FeedAnswer | null): string {
  const fiat = fiatUsd ?? { answer: 1n, decimals: 0 };
  const scaled = (tokenUsd.answer * 10n ** BigInt(fiat.decimals + rateDisplayDecimals)) / (10n ** BigInt(tokenUsd.decimals) * fiat.answer);
  return formatAmount(scaled, rateDisplayDecimals);
}

/**
 * Whether `received` pays `amount` within a tolerance in basis points: received ≥ amount × (1 − bps/10 000),
 * the threshold rounded up to a whole base unit (0 bps: the exact amount).
 */
export function paidWithinTolerance(received: bigint, amount: bigint, toleranceBps: number): boolean {
  const due = ceilDiv(amount * BigInt(10_000 - toleranceBps), 10_000n);
  return received >= due;
}
