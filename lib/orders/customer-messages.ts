/**
 * The one mapping from API error codes to what a person reads: the customer's words on the public
 * pages (payment link, pay page, wallet) and the merchant's words in the dashboard, with a link to
 * the fix. Never an error code, an API path or a library's message. Pure, for the pages' bundles.
 */
import { noBrowserWalletMessage } from "./no-browser-wallet-message";

export { noBrowserWalletMessage };

export interface CustomerContext {
  /** The merchant's shop name; empty when it has none. */
  shopName: string;
}

export interface MerchantContext {
  /** The API's own message for the error: used where it already says what to fix. */
  apiMessage: string;
  /** The name of the blockchain the request was about ("Base"), when it names one. */
  chainName?: string;
}

export interface MerchantWording {
  message: string;
  /** Where the merchant fixes it, in the dashboard. */
  fix?: { label: string; href: string };
}

const shop = (context: CustomerContext) => context.shopName || "the shop";
const somethingWrong = "Something went wrong on our side. Try again in a moment.";
/** The API's message without its pointers to API paths ("; see GET /api/blockchains/."). */
const plainApiMessage = (context: MerchantContext) => context.apiMessage.replace(/[;,]?\s*(see|add one with|use)\s+(GET|POST|PUT|PATCH|DELETE)\s+\/api\/\S*/gi, "").replace(/\.?\s*$/, ".");

interface Wording {
  customer: (context: CustomerContext) => string;
  merchant: (context: MerchantContext) => MerchantWording;
}

const cannotPayThisWay: Wording["customer"] = (c) => `${shop(c)} cannot take payments this way right now. Choose another way to pay, or contact ${shop(c)}.`;
const rateUnavailable: Wording = {
  customer: () => "The exchange rate for this payment is not available right now. Try again in a few minutes, or choose another way to pay.",
  merchant: (c) => ({ message: `The exchange rate${c.chainName ? ` on ${c.chainName}` : ""} is not available right now. Price the order in the token instead, or try again in a few minutes.` }),
};
const ourSide: Wording = { customer: () => somethingWrong, merchant: () => ({ message: somethingWrong }) };
const asTheApiSays: Wording["merchant"] = (c) => ({ message: plainApiMessage(c) });

const wording: Record<string, Wording> = {
  WALLET_NOT_CONFIGURED: {
    customer: cannotPayThisWay,
    merchant: (c) => {
      const chain = c.chainName ?? "this network";
      return {
        message: `You have no active wallet on ${chain}, so an order there could not be paid to you. Add one, or choose a network where you have a wallet.`,
        fix: { label: c.chainName ? `Add ${/^[aeiou]/i.test(c.chainName) ? "an" : "a"} ${c.chainName} wallet` : "Add a wallet", href: "/dashboard/wallets" },
      };
    },
  },
  INVALID_BLOCKCHAIN: { customer: cannotPayThisWay, merchant: () => ({ message: "This network is not available here. Choose another one." }) },
  UNSUPPORTED_CURRENCY: { customer: cannotPayThisWay, merchant: asTheApiSays },
  PRICE_FEED_STALE: rateUnavailable,
  PRICE_FEED_UNAVAILABLE: rateUnavailable,
  UNSUPPORTED_PRICE_CURRENCY: { customer: rateUnavailable.customer, merchant: asTheApiSays },
  RATE_LIMITED: {
    customer: () => "Too many attempts in a short time. Wait a minute and try again.",
    merchant: () => ({ message: "Too many attempts in a short time. Wait a minute and try again." }),
  },
  NOT_FOUND: {
    customer: (c) => `This payment is no longer available. Contact ${shop(c)}.`,
    merchant: asTheApiSays,
  },
  VALIDATION_ERROR: { customer: (c) => `This payment cannot be made with these details. Contact ${shop(c)}.`, merchant: asTheApiSays },
  INVALID_AMOUNT: { customer: (c) => `This payment cannot be made with these details. Contact ${shop(c)}.`, merchant: asTheApiSays },
  INVALID_ORDER_INFO: { customer: ourSide.customer, merchant: () => ({ message: 'Order info must be JSON, for example {"sku":"A1"}, or left empty.' }) },
  DUPLICATE_NONCE: { customer: ourSide.customer, merchant: asTheApiSays },
  ORDER_NOT_REFUNDABLE: { customer: ourSide.customer, merchant: asTheApiSays },
  REFUND_EXCEEDS_REFUNDABLE: { customer: ourSide.customer, merchant: asTheApiSays },
  CONFLICT: { customer: ourSide.customer, merchant: asTheApiSays },
  INVALID_AUTHORIZATION: {
    customer: () => "Your wallet's signature does not match this payment. Try \"Pay without gas\" again, or pay from your wallet.",
    merchant: asTheApiSays,
  },
  AUTHORIZATION_USED: { customer: () => "This signature was already used. Try \"Pay without gas\" again to sign a new one.", merchant: asTheApiSays },
  RELAY_BUDGET_EXHAUSTED: {
    customer: () => "Paying without gas is not available for this shop right now. Pay from your wallet instead, or try again later.",
    merchant: asTheApiSays,
  },
  GAS_PRICE_TOO_HIGH: {
    customer: () => "The network is too busy to pay without gas right now. Pay from your wallet instead, or try again in a few minutes.",
    merchant: asTheApiSays,
  },
  INVALID_CREDENTIALS: { customer: ourSide.customer, merchant: () => ({ message: "The username or password is not right." }) },
  INVALID_TOKEN: { customer: ourSide.customer, merchant: () => ({ message: "Your session has ended. Sign in again.", fix: { label: "Sign in", href: "/sign-in" } }) },
  INSUFFICIENT_PERMISSIONS: { customer: ourSide.customer, merchant: () => ({ message: "Your account may not do this." }) },
  CROSS_ORIGIN_REQUEST: { customer: ourSide.customer, merchant: () => ({ message: "This form was sent from another site, so it was refused. Reload the page and try again." }) },
  SERVICE_UNAVAILABLE: {
    customer: () => somethingWrong,
    merchant: () => ({ message: "The service is temporarily unavailable. Try again in a few seconds." }),
  },
  INTERNAL_ERROR: ourSide,
};

/** The customer's words for an API error envelope's code (POST /api/links/{id}/orders/, POST /api/pay/{id}/refund-address/). */
export function customerErrorMessage(code: string | undefined | null, context: CustomerContext): string {
  return (code ? wording[code] : undefined)?.customer(context) ?? somethingWrong;
}

/** The merchant's words for an error code in the dashboard, and where to fix it. */
export function merchantErrorMessage(code: string | undefined | null, context: MerchantContext): MerchantWording {
  const entry = code ? wording[code] : undefined;
  if (!entry) return { message: somethingWrong };
  return entry.merchant(context);
}

/** The customer's words for a browser wallet's error (viem/wagmi errors: `name`, EIP-1193 `code`, `shortMessage`). */
export function walletErrorMessage(error: unknown): string {
  const e = error as { name?: string; shortMessage?: string; message?: string; code?: number } | null;
  if (!e) return "";
  const text = `${e.shortMessage ?? ""} ${e.message ?? ""}`;
  if (e.name === "UserRejectedRequestError" || e.code === 4001 || /reject|denied|cancel/i.test(text)) return "The request was cancelled in your wallet. Try again when you are ready.";
  if (e.name === "ProviderNotFoundError" || e.name === "ConnectorNotFoundError") return noBrowserWalletMessage;
  if (e.name === "SwitchChainNotSupportedError" || e.code === 4902) return "Your wallet could not switch networks by itself. Switch it to the network above, then try again.";
  if (/insufficient funds|exceeds the balance/i.test(text)) return "Your wallet does not hold enough for this payment and its network fee.";
  return "Your wallet could not complete this. Try again, or pay by scanning the QR code or copying the amount and address.";
}
