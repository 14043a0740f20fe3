/**
 * Amounts as a customer reads them. Pure and dependency-free (the pay page's bundle imports it);
 * every function takes the locale the page will one day be shown in.
 */

export const defaultLocale = "en-US";

/**
 * Formatters by what they format and for which locale: building an Intl formatter costs far more
 * than using one, and the pay page formats on every render. Bounded by the locales and currencies
 * a process meets.
 */
const formatters = new Map<string, { format(value: number | Date): string }>();
function formatter(key: string, build: () => { format(value: number | Date): string }) {
  let cached = formatters.get(key);
  if (!cached) formatters.set(key, (cached = build()));
  return cached;
}

/** Significant digits shown of a token amount: enough to tell amounts apart, few enough to read. */
export const displaySignificantDigits = 6;

/**
 * A decimal string in token units → at most `displaySignificantDigits` significant digits, never
 * fewer than the whole part ("0.003177077686318523" → "0.00317708"; "1234567.891" → "1,234,568").
 * Rounded up, so paying the shown figure is never short of the exact one. The string is formatted
 * as an exact decimal (Intl.NumberFormat takes strings without a detour through floats).
 */
export function displayAmount(value: string, locale: string = defaultLocale): string {
  return formatter(`amount ${locale}`, () =>
    new Intl.NumberFormat(locale, {
      maximumSignificantDigits: displaySignificantDigits,
      maximumFractionDigits: 0,
      roundingPriority: "morePrecision",
      roundingMode: "ceil",
    }),
  ).format(value as unknown as number);
}

/** A fiat price with its currency, as the locale writes it ("10.00" EUR → "€10.00"); the code itself when the locale does not know it. */
export function displayFiat(value: string, currency: string, locale: string = defaultLocale): string {
  try {
    return formatter(`fiat ${locale} ${currency}`, () => new Intl.NumberFormat(locale, { style: "currency", currency })).format(value as unknown as number);
  } catch {
    return `${value} ${currency}`;
  }
}

/** A moment as the locale writes it, in UTC and saying so ("26 Nov 2026, 03:19 UTC"): the same text on the server and in any browser. */
export function utcDateTime(iso: string, locale: string = defaultLocale, style: "medium" | "long" = "medium"): string {
  return formatter(`utc ${locale} ${style}`, () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeStyle: "short", timeZone: "UTC" })).format(new Date(iso)) + " UTC";
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
