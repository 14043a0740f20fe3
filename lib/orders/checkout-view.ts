/**
 * What the hosted pay page shows in each state of an order, decided in one place: the page's
 * components only render it. Pure (type imports only), so the page's bundle carries it and the
 * rule is unit-tested without a browser (tests/unit/orders/checkout-view.test.ts).
 *
 * - `pay`: the order is open; everything (headline, amount row, Copy, QR code, wallet button)
 *   asks for what is still due, with progress once part of it arrived.
 * - `processing`: the payment was seen; nothing more is asked for, confirmations are shown.
 * - `result`: confirmed, expired or failed; what happened and what to do next replace the QR
 *   code, the address and the wallet, so no scannable address is left on screen.
 */
import type { PublicOrder } from "./public-order";
import { decimalToBaseUnits } from "@/lib/money/decimal";
import { defaultLocale, displayAmount, displayFiat, textsFormattedBy, utcDateTime } from "@/lib/money/display-amount";
import { paymentRequestUri } from "./payment-uri";

/**
 * The "checkout" messages (messages/<locale>.json) in the page's language: next-intl's
 * useTranslations("checkout") on the page, createTranslator on the server and in tests.
 */
export type CheckoutTranslate = (key: string, values?: Record<string, string | number>) => string;

export type CheckoutPanel = "pay" | "processing" | "result";

export type CheckoutOrder = Pick<
  PublicOrder,
  | "status"
  | "failure_reason"
  | "amount"
  | "amount_received"
  | "amount_missing"
  | "currency"
  | "token"
  | "blockchain"
  | "receiving_address"
  | "price_amount"
  | "price_currency"
  | "shop_name"
  | "redirect_url"
  | "refund_address_allowed"
  | "order_id"
  | "not_counted"
  | "payment_reversed"
>;

/** A transfer the customer sent that does not pay the order: the page links it. */
export interface UncountedLine {
  hash: string;
  url: string | null;
}

export interface AmountDue {
  /** Exact decimal in token units: what Copy puts on the clipboard and the wallet sends. */
  exact: string;
  /** Rounded up to a readable number of significant digits. */
  display: string;
  baseUnits: bigint;
  /** EIP-681 URI for the QR code and the "Open in wallet app" button. */
  paymentUri: string;
}

export interface CheckoutResult {
  tone: "ok" | "bad";
  title: string;
  /** Plain sentences: what happened, then what to do next. */
  lines: string[];
  /** "Return to {shop}": only with the merchant's redirect_url (the order carries it once confirmed). */
  returnTo: { url: string; label: string } | null;
  /** Confirmed orders: the path of their printable receipt (/pay/{order_id}/receipt). */
  receipt: string | null;
}

/**
 * What the customer sent that did not pay the order (late, another token) or that the network
 * reversed: sentences saying what arrived and what happens next, and the transactions to link.
 */
export interface CheckoutNotice {
  tone: "info" | "bad";
  lines: string[];
  transactions: UncountedLine[];
}

export interface CheckoutView {
  panel: CheckoutPanel;
  headline: string;
  /** Under the headline: the token amount of a fiat-priced order, and the network. */
  subline: string;
  /** Open orders only. */
  due: AmountDue | null;
  /** Open orders with part of the amount received. */
  progress: { received: string; total: string; percent: number } | null;
  result: CheckoutResult | null;
  notice: CheckoutNotice | null;
}

const shopOf = (order: Pick<CheckoutOrder, "shop_name">, t: CheckoutTranslate) => order.shop_name || t("theShop");

const refundLine = (order: CheckoutOrder, t: CheckoutTranslate) => t(order.refund_address_allowed ? "refundWithAddress" : "refund", { shop: shopOf(order, t) });

const withDefault = (lines: string[], fallback: string) => (lines.length ? lines : [fallback]);

/** "5 USDT arrived, …": one sentence per transfer of that kind. */
function arrivedLines(order: CheckoutOrder, t: CheckoutTranslate, locale: string, reason: "after_expiry" | "wrong_asset"): string[] {
  return order.not_counted
    .filter((u) => u.reason === reason)
    .map((u) =>
      t(reason === "after_expiry" ? "arrivedLate" : "wrongAssetLine", { amount: `${displayAmount(u.amount, locale)} ${u.currency}`, currency: order.currency }),
    );
}

/** The transfers that did not pay the order (or were reversed), and what happens next, for any panel. */
function noticeOf(order: CheckoutOrder, t: CheckoutTranslate, locale: string, panel: CheckoutPanel): CheckoutNotice | null {
  const shop = shopOf(order, t);
  const links = (reasons: string[]) =>
    order.not_counted.filter((u) => reasons.includes(u.reason)).map((u) => ({ hash: u.transaction_hash, url: u.transaction_url }));
  if (order.payment_reversed && order.status === "pending") {
    return { tone: "bad", lines: [t("reversedPending")], transactions: links(["reorged"]) };
  }
  if (panel === "result") {
    // The result's own lines already say what arrived; the notice only links the transactions.
    const transactions = links(order.status === "confirmed" ? ["reorged"] : ["after_expiry", "wrong_asset"]);
    return transactions.length ? { tone: "info", lines: [], transactions } : null;
  }
  const wrong = arrivedLines(order, t, locale, "wrong_asset");
  if (wrong.length) return { tone: "info", lines: [...wrong, t("wrongAssetNext", { shop, currency: order.currency })], transactions: links(["wrong_asset"]) };
  return null;
}

function result(order: CheckoutOrder, t: CheckoutTranslate, locale: string): CheckoutResult {
  const shop = shopOf(order, t);
  const received = `${displayAmount(order.amount_received, locale)} ${order.currency}`;
  const total = `${displayAmount(order.amount, locale)} ${order.currency}`;
  const returnTo = order.redirect_url ? { url: order.redirect_url, label: t("returnTo", { shop }) } : null;
  const noMore = t("noMore");
  if (order.status === "confirmed" && order.payment_reversed) {
    return { tone: "bad", title: t("reversedTitle"), lines: [t("reversedLine", { shop })], returnTo, receipt: null };
  }
  if (order.status === "confirmed") {
    return { tone: "ok", title: t("confirmedTitle"), lines: [t("confirmedLine", { received, shop })], returnTo, receipt: `/pay/${order.order_id}/receipt` };
  }
  if (order.status === "expired" && order.not_counted.some((u) => u.reason === "wrong_asset")) {
    return {
      tone: "bad",
      title: t("wrongAssetTitle"),
      lines: [...arrivedLines(order, t, locale, "wrong_asset"), `${noMore} ${refundLine(order, t)}`],
      returnTo,
      receipt: null,
    };
  }
  if (order.status === "expired") {
    return {
      tone: "bad",
      title: t("expiredTitle"),
      lines: [t("expiredLine"), `${noMore} ${t("startAgain", { shop })}`],
      returnTo,
      receipt: null,
    };
  }
  if (order.failure_reason === "underpaid") {
    return {
      tone: "bad",
      title: t("underpaidTitle"),
      lines: [t("underpaidLine", { received, total }), `${noMore} ${refundLine(order, t)}`],
      returnTo,
      receipt: null,
    };
  }
  if (order.failure_reason === "late_payment") {
    return {
      tone: "bad",
      title: t("lateTitle"),
      // What arrived, when the page knows it; the general sentence otherwise.
      lines: [...withDefault(arrivedLines(order, t, locale, "after_expiry"), t("lateLine")), `${noMore} ${refundLine(order, t)}`],
      returnTo,
      receipt: null,
    };
  }
  return {
    tone: "bad",
    title: t("failedTitle"),
    lines: [t("failedLine"), `${noMore} ${t("startAgain", { shop })}`],
    returnTo,
    receipt: null,
  };
}

/** The item line of a link's order under the pay page's shop name (rendered on the server: not in the page's bundle). */
export function itemLine(item: { name: string; quantity: number }): string {
  return item.quantity > 1 ? `${item.name} × ${item.quantity}` : item.name;
}

/** The pay page's view of an order in its current state (see the module comment). */
export function checkoutView(order: CheckoutOrder, t: CheckoutTranslate, locale: string = defaultLocale): CheckoutView {
  const network = order.blockchain.name;
  const fiat = order.price_amount && order.price_currency ? displayFiat(order.price_amount, order.price_currency, locale) : null;
  const tokenAmount = `${displayAmount(order.amount, locale)} ${order.currency}`;

  const nothingDue = order.status === "pending" && decimalToBaseUnits(order.amount_missing, order.token.decimals) === 0n;
  if (order.status === "pending" && !nothingDue) {
    const baseUnits = decimalToBaseUnits(order.amount_missing, order.token.decimals);
    const display = displayAmount(order.amount_missing, locale);
    const due: AmountDue = {
      exact: order.amount_missing,
      display,
      baseUnits,
      paymentUri: paymentRequestUri({ to: order.receiving_address, chainId: order.blockchain.chain_id, tokenAddress: order.token.address, amount: baseUnits }),
    };
    const partial = order.amount_received !== "0";
    const total = decimalToBaseUnits(order.amount, order.token.decimals);
    const received = total - baseUnits;
    return {
      panel: "pay",
      headline: partial ? t("payRemaining", { amount: `${display} ${order.currency}` }) : t("pay", { amount: fiat ?? tokenAmount }),
      subline: fiat && !partial ? t("amountOnNetwork", { amount: tokenAmount, network }) : t("onNetwork", { network }),
      due,
      progress: partial
        ? {
            received: displayAmount(order.amount_received, locale),
            total: displayAmount(order.amount, locale),
            percent: total > 0n ? Number((received * 100n) / total) : 0,
          }
        : null,
      result: null,
      notice: noticeOf(order, t, locale, "pay"),
    };
  }
  // All of it arrived and the scanner has yet to move the order on: nothing more is asked for.
  if (order.status === "processing" || nothingDue) {
    return {
      panel: "processing",
      headline: t("confirming", { amount: fiat ?? tokenAmount }),
      subline: t("onNetwork", { network }),
      due: null,
      progress: null,
      result: null,
      notice: noticeOf(order, t, locale, "processing"),
    };
  }
  const outcome = result(order, t, locale);
  const headline = order.status === "confirmed" && !order.payment_reversed ? t("paid", { amount: fiat ?? tokenAmount }) : outcome.title;
  const subline = fiat ? t("amountOnNetwork", { amount: tokenAmount, network }) : t("onNetwork", { network });
  return { panel: "result", headline, subline, due: null, progress: null, result: outcome, notice: noticeOf(order, t, locale, "result") };
}

/**
 * What the pay page's first render formats (its view, the details, the method tiles, the countdown's
 * deadline), formatted on the server for the page to adopt before it hydrates (`adoptServerTexts`).
 */
export function payPageFirstTexts(order: PublicOrder, locale: string): Record<string, string> {
  return textsFormattedBy(() => {
    for (const amount of [order.amount, order.amount_missing, order.amount_received]) displayAmount(amount, locale);
    for (const method of order.methods) displayAmount(method.amount, locale);
    for (const transfer of order.not_counted) displayAmount(transfer.amount, locale);
    if (order.price_amount && order.price_currency) displayFiat(order.price_amount, order.price_currency, locale);
    if (order.rate_updated_at) utcDateTime(order.rate_updated_at, locale);
    utcDateTime(order.expires_at, locale);
  });
}
