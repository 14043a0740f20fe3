import "server-only";
import type { Blockchain, TokenInfo } from "@/lib/chains/catalog";
import { ApiError } from "@/lib/http/errors";
import { formatAmount, parseAmount } from "@/lib/money/amounts";
import { checkFiatPrice, rateSourceOf } from "@/lib/pricing/lock-price";
import { displayRate, fiatToTokenUnits, type FeedAnswer } from "@/lib/pricing/convert";
import { readFeed, type FeedReading } from "@/lib/pricing/price-feeds";
import type { CheckedLeg } from "./payout-legs";

export interface PricedLegs {
  legs: { toAddress: string; amount: bigint; fiatAmount: string | null; reference: string | null; claimId?: string }[];
  total: bigint;
  amountCurrency: string | null;
  /** amount_currency per whole token; null for a batch entered in the token. */
  rate: string | null;
  /** What the batch is worth in USD at the token/USD feed; null when no feed prices the token. */
  usdValue: string | null;
  rateSource: { pair: string; feed_address: string; round_id: string; answer: string; decimals: number; updated_at: string }[];
}

/** Minor units of fiat an amount is entered in (fiat legs) or the token's decimals. */
export function amountDecimalsFor(token: TokenInfo, amountCurrency: string | null | undefined, chain: Blockchain): number {
  if (!amountCurrency) return token.decimals;
  return checkFiatPrice(chain, token, "1", amountCurrency).minorUnits;
}

/** USD cents of `amount` base units at `tokenUsd`, rounded down, as "123.45". */
function usdOf(amount: bigint, decimals: number, tokenUsd: FeedAnswer): string {
  const cents = (amount * tokenUsd.answer * 100n) / 10n ** BigInt(decimals + tokenUsd.decimals);
  return formatAmount(cents, 2);
}

/**
 * The legs' token amounts, with the batch's rate locked now (reuses lib/pricing's feeds and
 * conversion): legs entered in fiat are converted at the token/USD and fiat/USD feeds, rounded up
 * to the token's smallest unit, as an order's price is; every batch also gets its USD worth from the
 * token/USD feed (the approval threshold and the movements export), or none when the chain has no
 * feed for the token. A fiat batch whose feeds cannot be read is refused (nothing is converted on a
 * guess).
 */
export async function priceLegs(
  chain: Blockchain,
  token: TokenInfo,
  amountCurrency: string | null | undefined,
  legs: CheckedLeg[],
  now: Date,
): Promise<PricedLegs> {
  const pair = `${token.symbol.toUpperCase()}/USD`;
  if (amountCurrency) {
    const { priceCurrency, minorUnits } = checkFiatPrice(chain, token, "1", amountCurrency);
    const [tokenUsd, fiatUsd] = await Promise.all([
      readFeed(chain, pair, now),
      priceCurrency === "USD" ? Promise.resolve(null) : readFeed(chain, `${priceCurrency}/USD`, now),
    ]);
    const priced = legs.map((leg) => ({
      toAddress: leg.toAddress,
      amount: fiatToTokenUnits(parseAmount(leg.amountText, minorUnits), minorUnits, tokenUsd, fiatUsd, token.decimals),
      fiatAmount: formatAmount(parseAmount(leg.amountText, minorUnits), minorUnits),
      reference: leg.reference,
      claimId: leg.claimId,
    }));
    const total = priced.reduce((sum, leg) => sum + leg.amount, 0n);
    return {
      legs: priced,
      total,
      amountCurrency: priceCurrency,
      rate: displayRate(tokenUsd, fiatUsd),
      usdValue: usdOf(total, token.decimals, tokenUsd),
      rateSource: [tokenUsd, ...(fiatUsd ? [fiatUsd] : [])].map(rateSourceOf),
    };
  }
  const priced = legs.map((leg) => ({
    toAddress: leg.toAddress,
    amount: parseAmount(leg.amountText, token.decimals),
    fiatAmount: null,
    reference: leg.reference,
    claimId: leg.claimId,
  }));
  const total = priced.reduce((sum, leg) => sum + leg.amount, 0n);
  let tokenUsd: FeedReading | null = null;
  if (chain.priceFeeds[pair]) {
    try {
      tokenUsd = await readFeed(chain, pair, now);
    } catch (error) {
      // A token batch needs no rate to be paid; without one its worth is unknown (and needs approval when a threshold is set).
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return {
    legs: priced,
    total,
    amountCurrency: null,
    rate: null,
    usdValue: tokenUsd ? usdOf(total, token.decimals, tokenUsd) : null,
    rateSource: tokenUsd ? [rateSourceOf(tokenUsd)] : [],
  };
}

/** Whether a batch worth `usdValue` needs a second member's approval under `threshold` (USD; null: never). Unknown worth needs it. */
export function needsApproval(usdValue: string | null, threshold: string | null): boolean {
  if (threshold === null) return false;
  if (usdValue === null) return true;
  return usdCents(usdValue) > usdCents(threshold);
}

/** "12.5" → 1250n (a decimal string; digits past the cent are dropped). */
function usdCents(text: string): bigint {
  const [whole = "0", fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(2, "0").slice(0, 2));
}
