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
import { defaultLocale, displayAmount, displayFiat } from "./display-amount";
import { decimalToBaseUnits, paymentRequestUri } from "./payment-uri";

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
>;

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
}

const shopOf = (order: Pick<CheckoutOrder, "shop_name">) => order.shop_name || "the shop";

const refundLine = (order: CheckoutOrder) =>
  `${shopOf(order)} sees this payment on the order and can refund it${order.refund_address_allowed ? ": leave the address to refund to below" : ""}.`;

function result(order: CheckoutOrder, locale: string): CheckoutResult {
  const shop = shopOf(order);
  const received = `${displayAmount(order.amount_received, locale)} ${order.currency}`;
  const total = `${displayAmount(order.amount, locale)} ${order.currency}`;
  const returnTo = order.redirect_url ? { url: order.redirect_url, label: `Return to ${order.shop_name || "the shop"}` } : null;
  const noMore = "Do not send funds to this address now.";
  if (order.status === "confirmed") {
    return { tone: "ok", title: "Payment confirmed", lines: [`${received} received by ${shop}. Thank you!`], returnTo, receipt: `/pay/${order.order_id}/receipt` };
  }
  if (order.status === "expired") {
    return {
      tone: "bad",
      title: "This payment request has expired",
      lines: ["No payment arrived before the deadline, and nothing was charged.", `${noMore} Go back to ${shop} and start a new payment.`],
      returnTo,
      receipt: null,
    };
  }
  if (order.failure_reason === "underpaid") {
    return {
      tone: "bad",
      title: "Payment incomplete",
      lines: [`Only ${received} of ${total} arrived before the deadline.`, `${noMore} ${refundLine(order)}`],
      returnTo,
      receipt: null,
    };
  }
  if (order.failure_reason === "late_payment") {
    return {
      tone: "bad",
      title: "Payment arrived too late",
      lines: ["Your payment reached this address after the payment window had closed.", `${noMore} ${refundLine(order)}`],
      returnTo,
      receipt: null,
    };
  }
  return {
    tone: "bad",
    title: "Payment failed",
    lines: ["The transaction failed on the blockchain, so no funds moved.", `${noMore} Go back to ${shop} and start a new payment.`],
    returnTo,
    receipt: null,
  };
}

/** The item line of a link's order under the pay page's shop name (rendered on the server: not in the page's bundle). */
export function itemLine(item: { name: string; quantity: number }): string {
  return item.quantity > 1 ? `${item.name} × ${item.quantity}` : item.name;
}

/** The pay page's view of an order in its current state (see the module comment). */
export function checkoutView(order: CheckoutOrder, locale: string = defaultLocale): CheckoutView {
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
      headline: partial ? `Pay the remaining ${display} ${order.currency}` : `Pay ${fiat ?? tokenAmount}`,
      subline: `${fiat && !partial ? `${tokenAmount} ` : ""}on ${network}`,
      due,
      progress: partial
        ? { received: displayAmount(order.amount_received, locale), total: displayAmount(order.amount, locale), percent: total > 0n ? Number((received * 100n) / total) : 0 }
        : null,
      result: null,
    };
  }
  // All of it arrived and the scanner has yet to move the order on: nothing more is asked for.
  if (order.status === "processing" || nothingDue) {
    return { panel: "processing", headline: `Confirming your payment of ${fiat ?? tokenAmount}`, subline: `on ${network}`, due: null, progress: null, result: null };
  }
  const outcome = result(order, locale);
  const headline = order.status === "confirmed" ? `Paid ${fiat ?? tokenAmount}` : outcome.title;
  return { panel: "result", headline, subline: `${fiat ? `${tokenAmount} ` : ""}on ${network}`, due: null, progress: null, result: outcome };
}
