/**
 * Amounts as a customer reads them, and the moments and countdown the same pages show beside them
 * (one formatter cache, one hand-over of the server's texts). Dependency-free (the pay page's bundle
 * imports it); every function takes the locale the page will one day be shown in.
 */

export const defaultLocale = "en-US";

/**
 * Formatters by what they format and for which locale: building an Intl formatter costs far more
 * than using one, and the pay page formats on every render. Bounded by the locales and currencies
 * a process meets.
 */
const formatters = new Map<string, { format(value: number | Date): string }>();

/**
 * Texts the server formatted for a page's first render (`textsFormattedBy`), adopted by the page's
 * client part (`adoptServerTexts`) before it hydrates, so hydrating builds no Intl formatter: the
 * first one a page builds loads the locale's ICU data, 50–110 ms of one long task on a slow phone,
 * most of the pay and link pages' blocking time in Lighthouse's mobile run. A value they do not hold
 * (a new amount due, another quantity) is formatted in the browser.
 */
const serverTexts = new Map<string, string>();
/** While `textsFormattedBy` runs: every text formatted, by key. */
let recording: Map<string, string> | null = null;

function formatted(kind: string, value: string, build: () => { format(value: number | Date): string }, input: number | Date): string {
  const key = `${kind} ${value}`;
  let text = serverTexts.get(key);
  if (text === undefined) {
    let cached = formatters.get(kind);
    if (!cached) formatters.set(kind, (cached = build()));
    text = cached.format(input);
  }
  recording?.set(key, text);
  return text;
}

/** The texts `format` formats (it calls the functions of this module), by key: for `adoptServerTexts` in the page's client part. */
export function textsFormattedBy(format: () => void): Record<string, string> {
  const texts = new Map<string, string>();
  recording = texts;
  try {
    format();
  } finally {
    recording = null;
  }
  return Object.fromEntries(texts);
}

/** In the browser: from now on, the values in `texts` are not formatted again (see `serverTexts`). A no-op on the server, whose map would only grow. */
export function adoptServerTexts(texts: Record<string, string>): void {
  if (typeof window === "undefined") return;
  for (const [key, text] of Object.entries(texts)) serverTexts.set(key, text);
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
  return formatted(
    `amount ${locale}`,
    value,
    () =>
      new Intl.NumberFormat(locale, {
        maximumSignificantDigits: displaySignificantDigits,
        maximumFractionDigits: 0,
        roundingPriority: "morePrecision",
        roundingMode: "ceil",
      }),
    value as unknown as number,
  );
}

/** A fiat price with its currency, as the locale writes it ("10.00" EUR → "€10.00"); the code itself when the locale does not know it. */
export function displayFiat(value: string, currency: string, locale: string = defaultLocale): string {
  try {
    return formatted(`fiat ${locale} ${currency}`, value, () => new Intl.NumberFormat(locale, { style: "currency", currency }), value as unknown as number);
  } catch {
    return `${value} ${currency}`;
  }
}

/** A moment as the locale writes it, in UTC and saying so ("26 Nov 2026, 03:19 UTC"): the same text on the server and in any browser. */
export function utcDateTime(iso: string, locale: string = defaultLocale, style: "medium" | "long" = "medium"): string {
  return (
    formatted(`utc ${locale} ${style}`, iso, () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeStyle: "short", timeZone: "UTC" }), new Date(iso)) +
    " UTC"
  );
}

/**
 * Time left as a digital clock ("14:59", "2:05:07", "00:03"). Intl.DurationFormat's digital style
 * (hours only when there are some) writes exactly this in every customer locale, as
 * tests/e2e/i18n.spec.ts checks in chromium; building one was the pay page's first Intl formatter,
 * which loads the locale's ICU data: ~80 ms of one long task on a slow phone, on every page load.
 */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
  const ss = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}
