import { MathBN, defaultCurrencies } from "@medusajs/framework/utils";
import type { BigNumberInput } from "@medusajs/framework/types";

/** A Medusa amount (number, string, BigNumber or raw `{ value }`) as a plain decimal string. */
export function decimalOf(amount: BigNumberInput): string {
  return MathBN.convert(amount).toFixed();
}

/** Minor units of an ISO 4217 currency (JPY 0, USD 2, …), as Medusa knows them. */
export function minorUnitsOf(currencyCode: string): number {
  return defaultCurrencies[currencyCode.toUpperCase()]?.decimal_digits ?? 2;
}

/** The price for the gateway's `price_amount`: rounded to the currency's minor units ("19.90"). */
export function fiatPrice(amount: BigNumberInput, currencyCode: string): string {
  return MathBN.convert(amount).decimalPlaces(minorUnitsOf(currencyCode), 4 /* ROUND_HALF_UP */).toFixed(minorUnitsOf(currencyCode));
}

/**
 * The token amount that refunds `refundFiat` of an order that cost `priceFiat` and was due
 * `orderTokenAmount` tokens: the same share, rounded down to the token's decimals (never more than
 * the share; the last refund of an order sends whatever is left instead).
 */
export function proportionalTokenAmount(orderTokenAmount: string, refundFiat: string, priceFiat: string, decimals: number): string {
  const share = MathBN.convert(orderTokenAmount).times(refundFiat).div(priceFiat);
  return share.decimalPlaces(decimals, 1 /* ROUND_DOWN */).toFixed();
}
