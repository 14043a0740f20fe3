import "server-only";
import QRCode from "qrcode";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { PaymentOrder } from "@/lib/db/schema";
import { paymentUri } from "./payment-uri";

/** The EIP-681 URI for an order: with the amount for the native coin, address-only for tokens (see payment-uri.ts). */
export function orderPaymentUri(order: PaymentOrder): string | null {
  const chain = findBlockchainById(order.blockchainId);
  if (!chain) return null;
  return paymentUri({
    address: order.receivingAddress,
    chainId: chain.chainId,
    nativeAmount: order.tokenAddress === null ? BigInt(order.amount) : null,
  });
}

/** An SVG QR code of the text; error correction M (15 %) keeps it small enough to scan off a phone screen. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
