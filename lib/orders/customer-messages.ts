/**
 * Customer-facing wording for what goes wrong on the public pages (payment link, pay page, wallet):
 * never an error code, an API path or a library's message. Pure, for the pages' bundles.
 */
import { noBrowserWalletMessage } from "./no-browser-wallet-message";

export { noBrowserWalletMessage };

export interface CustomerContext {
  /** The merchant's shop name; empty when it has none. */
  shopName: string;
}

const shop = (context: CustomerContext) => context.shopName || "the shop";

/** The customer's words for an API error envelope's code (POST /api/links/{id}/orders/, POST /api/pay/{id}/refund-address/). */
export function customerErrorMessage(code: string | undefined | null, context: CustomerContext): string {
  switch (code) {
    case "WALLET_NOT_CONFIGURED":
    case "INVALID_BLOCKCHAIN":
    case "UNSUPPORTED_CURRENCY":
      return `${shop(context)} cannot take payments this way right now. Choose another way to pay, or contact ${shop(context)}.`;
    case "PRICE_FEED_STALE":
    case "PRICE_FEED_UNAVAILABLE":
    case "UNSUPPORTED_PRICE_CURRENCY":
      return "The exchange rate for this payment is not available right now. Try again in a few minutes, or choose another way to pay.";
    case "RATE_LIMITED":
      return "Too many attempts in a short time. Wait a minute and try again.";
    case "NOT_FOUND":
      return `This payment is no longer available. Contact ${shop(context)}.`;
    case "VALIDATION_ERROR":
    case "INVALID_AMOUNT":
      return `This payment cannot be made with these details. Contact ${shop(context)}.`;
    case "SERVICE_UNAVAILABLE":
    case "INTERNAL_ERROR":
    default:
      return "Something went wrong on our side. Try again in a moment.";
  }
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
