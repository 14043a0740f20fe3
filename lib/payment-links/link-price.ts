/**
 * A payment link's price as its page shows it. Dependency-free: the link page's bundle imports it,
 * and its server part formats the first render's texts with it (`linkPageFirstTexts`).
 */
import { multiplyDecimal } from "@/lib/money/decimal";
import { displayAmount, displayFiat, textsFormattedBy } from "@/lib/money/display-amount";

export interface LinkPriceView {
  amount: string | null;
  price_amount: string | null;
  price_currency: string | null;
}

/** The price of `quantity` items as the customer reads it: a fiat price with its currency, a token price with the token. */
export function linkPrice(link: LinkPriceView, quantity: number, currency: string, locale: string): string {
  if (link.price_amount && link.price_currency) return displayFiat(multiplyDecimal(link.price_amount, quantity), link.price_currency, locale);
  return `${displayAmount(multiplyDecimal(link.amount ?? "0", quantity), locale)} ${currency}`;
}

/** The link page's first price and total (one item, the first method), formatted on the server for the page to adopt before it hydrates (adoptServerTexts). */
export function linkPageFirstTexts(link: LinkPriceView, firstCurrency: string, locale: string): Record<string, string> {
  return textsFormattedBy(() => linkPrice(link, 1, firstCurrency, locale));
}
