/**
 * Decimal strings in token or price units, computed exactly (bigint, never a float). Dependency-free:
 * the pay page's and the payment link page's bundles import it.
 */

const decimalPattern = /^(\d+)(?:\.(\d+))?$/;

/** A decimal string in token units ("15", "0.25") → integer base units, exactly; throws on anything else or on excess precision. */
export function decimalToBaseUnits(text: string, decimals: number): bigint {
  const match = decimalPattern.exec(text);
  if (!match) throw new Error(`Not a plain decimal amount: "${text}".`);
  const fraction = match[2] ?? "";
  if (fraction.replace(/0+$/, "").length > decimals) throw new Error(`"${text}" has more than ${decimals} decimal places.`);
  return BigInt(match[1]! + fraction.slice(0, decimals).padEnd(decimals, "0"));
}

/**
 * A decimal string times a whole quantity, exactly, without trailing zeros ("24.50" × 3 → "73.5"):
 * a payment link's price × quantity, the same on the link's page (its live total) and on the server
 * (the order's price).
 */
export function multiplyDecimal(value: string, quantity: number): string {
  const [whole = "0", fraction = ""] = value.split(".");
  const units = (BigInt(whole + fraction) * BigInt(quantity)).toString().padStart(fraction.length + 1, "0");
  if (!fraction) return units;
  const fractionDigits = units.slice(-fraction.length).replace(/0+$/, "");
  return fractionDigits ? `${units.slice(0, -fraction.length)}.${fractionDigits}` : units.slice(0, -fraction.length);
}
