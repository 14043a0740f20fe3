import { ApiError } from "@/lib/http/errors";

/** The largest amount an EVM token (uint256) can hold, in base units. */
export const maxBaseUnits = 2n ** 256n - 1n;

const decimalText = /^(\d+)(?:\.(\d+))?$/;

const invalidAmount = (message: string) => new ApiError("INVALID_AMOUNT", message);

/**
 * A positive decimal string in token units → integer base units, exactly (no floats).
 * Throws INVALID_AMOUNT for anything but a plain decimal string ("10", "10.5"; no sign, exponent
 * or spaces), for zero, for more fraction digits than the token has, and above 2^256 − 1.
 */
export function parseAmount(text: unknown, decimals: number): bigint {
  if (typeof text !== "string") throw invalidAmount('Amount must be a decimal number written as a string, e.g. "10.50".');
  const match = decimalText.exec(text);
  if (!match) throw invalidAmount('Amount must be a positive decimal number such as "10.50".');
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) {
    throw invalidAmount(`Amount has more than ${decimals} decimal places, the precision of this currency.`);
  }
  // Bound the work before BigInt: more digits than 2^256 has cannot be valid.
  if (whole.replace(/^0+/, "").length > 78) throw invalidAmount("Amount is too large.");
  const baseUnits = BigInt(whole + fraction.padEnd(decimals, "0"));
  if (baseUnits === 0n) throw invalidAmount("Amount must be greater than zero.");
  if (baseUnits > maxBaseUnits) throw invalidAmount("Amount is too large.");
  return baseUnits;
}

/**
 * Integer base units → canonical decimal string in token units: no exponent, no trailing zeros
 * in the fraction, no trailing dot ("10500000", 6 → "10.5"; 0 → "0").
 */
export function formatAmount(baseUnits: bigint, decimals: number): string {
  const negative = baseUnits < 0n;
  const digits = (negative ? -baseUnits : baseUnits).toString();
  if (decimals === 0) return (negative ? "-" : "") + digits;
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, -decimals);
  const fraction = padded.slice(-decimals).replace(/0+$/, "");
  return (negative ? "-" : "") + (fraction ? `${whole}.${fraction}` : whole);
}
