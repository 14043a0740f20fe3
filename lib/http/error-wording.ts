/**
 * The one mapping from API error codes to what a person reads: the customer's words on the public
 * pages (payment link, pay page, wallet) and the merchant's words in the dashboard, with a link to
 * the fix. Never an error code, an API path or a library's message. Pure, for the pages' bundles.
 * The customer's words are in their language: the "errors" and "wallet" messages
 * (messages/<locale>.json), through next-intl's translate function; the dashboard's stay English.
 */

/** next-intl's translate function for one namespace of messages/<locale>.json. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

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

const shop = (context: CustomerContext, t: Translate) => context.shopName || t("theShop");
const somethingWrong = "Something went wrong on our side. Try again in a moment.";
/** The API's message without its pointers to API paths ("; see GET /api/blockchains/."). */
const plainApiMessage = (context: MerchantContext) =>
  context.apiMessage.replace(/[;,]?\s*(see|add one with|use)\s+(GET|POST|PUT|PATCH|DELETE)\s+\/api\/\S*/gi, "").replace(/\.?\s*$/, ".");

interface Wording {
  /** With the "errors" messages. */
  customer: (context: CustomerContext, t: Translate) => string;
  merchant: (context: MerchantContext) => MerchantWording;
}

const cannotPayThisWay: Wording["customer"] = (c, t) => t("cannotPayThisWay", { shop: shop(c, t) });
const rateUnavailable: Wording = {
  customer: (_c, t) => t("rateUnavailable"),
  merchant: (c) => ({
    message: `The exchange rate${c.chainName ? ` on ${c.chainName}` : ""} is not available right now. Price the order in the token instead, or try again in a few minutes.`,
  }),
};
const ourSide: Wording = { customer: (_c, t) => t("somethingWrong"), merchant: () => ({ message: somethingWrong }) };
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
    customer: (_c, t) => t("rateLimited"),
    merchant: () => ({ message: "Too many attempts in a short time. Wait a minute and try again." }),
  },
  NOT_FOUND: {
    customer: (c, t) => t("notAvailable", { shop: shop(c, t) }),
    merchant: asTheApiSays,
  },
  VALIDATION_ERROR: { customer: (c, t) => t("badDetails", { shop: shop(c, t) }), merchant: asTheApiSays },
  INVALID_AMOUNT: { customer: (c, t) => t("badDetails", { shop: shop(c, t) }), merchant: asTheApiSays },
  INVALID_ORDER_INFO: { customer: ourSide.customer, merchant: () => ({ message: 'Order info must be JSON, for example {"sku":"A1"}, or left empty.' }) },
  DUPLICATE_NONCE: { customer: ourSide.customer, merchant: asTheApiSays },
  ORDER_NOT_REFUNDABLE: { customer: ourSide.customer, merchant: asTheApiSays },
  SANCTIONED_ADDRESS: { customer: ourSide.customer, merchant: asTheApiSays },
  REFUND_EXCEEDS_REFUNDABLE: { customer: ourSide.customer, merchant: asTheApiSays },
  CONFLICT: { customer: ourSide.customer, merchant: asTheApiSays },
  INVALID_AUTHORIZATION: { customer: (_c, t) => t("authorizationInvalid"), merchant: asTheApiSays },
  AUTHORIZATION_USED: { customer: (_c, t) => t("authorizationUsed"), merchant: asTheApiSays },
  RELAY_BUDGET_EXHAUSTED: { customer: (_c, t) => t("relayUnavailable"), merchant: asTheApiSays },
  RELAY_NOT_WORTHWHILE: { customer: (_c, t) => t("relayNotWorthwhile"), merchant: asTheApiSays },
  GAS_PRICE_TOO_HIGH: { customer: (_c, t) => t("networkBusy"), merchant: asTheApiSays },
  INVALID_CREDENTIALS: { customer: ourSide.customer, merchant: () => ({ message: "The username or password is not right." }) },
  INVALID_TOKEN: {
    customer: ourSide.customer,
    merchant: () => ({ message: "Your session has ended. Sign in again.", fix: { label: "Sign in", href: "/sign-in" } }),
  },
  INSUFFICIENT_PERMISSIONS: { customer: ourSide.customer, merchant: () => ({ message: "Your account may not do this." }) },
  CROSS_ORIGIN_REQUEST: {
    customer: ourSide.customer,
    merchant: () => ({ message: "This form was sent from another site, so it was refused. Reload the page and try again." }),
  },
  SERVICE_UNAVAILABLE: {
    customer: ourSide.customer,
    merchant: () => ({ message: "The service is temporarily unavailable. Try again in a few seconds." }),
  },
  INTERNAL_ERROR: ourSide,
};

/** The customer's words for an API error envelope's code (POST /api/links/{id}/orders/, POST /api/pay/{id}/refund-address/); `t`: the "errors" messages. */
export function customerErrorMessage(code: string | undefined | null, context: CustomerContext, t: Translate): string {
  return ((code ? wording[code] : undefined) ?? ourSide).customer(context, t);
}

/** The merchant's words for an error code in the dashboard, and where to fix it. */
export function merchantErrorMessage(code: string | undefined | null, context: MerchantContext): MerchantWording {
  const entry = code ? wording[code] : undefined;
  if (!entry) return { message: somethingWrong };
  return entry.merchant(context);
}

/** The customer's words for a browser wallet's error (viem/wagmi errors: `name`, EIP-1193 `code`, `shortMessage`); `t`: the "wallet" messages. */
export function walletErrorMessage(error: unknown, t: Translate): string {
  const e = error as { name?: string; shortMessage?: string; message?: string; code?: number } | null;
  if (!e) return "";
  const text = `${e.shortMessage ?? ""} ${e.message ?? ""}`;
  if (e.name === "UserRejectedRequestError" || e.code === 4001 || /reject|denied|cancel/i.test(text)) return t("cancelled");
  if (e.name === "ProviderNotFoundError" || e.name === "ConnectorNotFoundError") return t("noBrowserWallet");
  if (e.name === "SwitchChainNotSupportedError" || e.code === 4902) return t("cannotSwitch");
  if (/insufficient funds|exceeds the balance/i.test(text)) return t("insufficient");
  return t("failed");
}
