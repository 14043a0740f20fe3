import { findBlockchainById } from "@/lib/chains/catalog";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amounts";
import type { NotCountedReason } from "./schemas";

/** Internal status → the spec's: a transfer reorged out ("dropped") failed from the merchant's point of view. */
export function apiStatus(status: string): "pending" | "confirmed" | "failed" {
  return status === "confirmed" ? "confirmed" : status === "pending" ? "pending" : "failed";
}

function tokenDecimals(transfer: Transaction): number {
  const chain = findBlockchainById(transfer.blockchainId);
  const token = chain?.tokens.find((t) => (t.address ?? null) === transfer.tokenAddress);
  return token?.decimals ?? 18;
}

export function serializeTransactionListItem(transfer: Transaction) {
  return {
    transaction_hash: transfer.txHash,
    blockchain: findBlockchainById(transfer.blockchainId)?.slug ?? null,
    status: apiStatus(transfer.status),
    amount: formatAmount(BigInt(transfer.amount), tokenDecimals(transfer)),
    currency: transfer.currency,
    created_at: transfer.createdAt.toISOString(),
  };
}

/** Why a transfer does not count toward its order, or null when it does (a subscription's charge counts while it stands). */
export function notCountedReason(transfer: Transaction, order: Pick<PaymentOrder, "tokenAddress" | "expiresAt"> | null): NotCountedReason | null {
  if (transfer.status === "failed") return "reverted";
  if (transfer.status === "dropped") return "reorged";
  if (transfer.counted) return null;
  if (!order || (order.tokenAddress ?? null)?.toLowerCase() !== transfer.tokenAddress?.toLowerCase()) return "wrong_asset";
  return "after_expiry";
}

/** The full transaction (spec › Transaction), confirmations counted against the scanner's head. */
export function serializeTransaction(
  transfer: Transaction,
  order: PaymentOrder | null,
  head: bigint | null,
  charge: { subscriptionId: string | null; period: number | null } | null = null,
) {
  const chain = findBlockchainById(transfer.blockchainId);
  const dropped = transfer.status === "dropped";
  const confirmations = !dropped && head !== null && head >= transfer.blockNumber ? Number(head - transfer.blockNumber + 1n) : 0;
  return {
    transaction_hash: transfer.txHash,
    payment_order: order
      ? { id: order.id, order_id: order.orderId, amount: formatAmount(BigInt(order.amount), order.decimals), currency: order.currency }
      : null,
    subscription: charge?.subscriptionId ? { id: charge.subscriptionId, period: charge.period ?? 0 } : null,
    blockchain: chain?.slug ?? null,
    block_number: Number(transfer.blockNumber),
    block_timestamp: transfer.blockTimestamp.toISOString(),
    confirmations,
    status: apiStatus(transfer.status),
    from_address: transfer.fromAddress,
    to_address: transfer.toAddress,
    amount: formatAmount(BigInt(transfer.amount), tokenDecimals(transfer)),
    currency: transfer.currency,
    gas_used: transfer.gasUsed === null ? null : Number(transfer.gasUsed),
    gas_price: transfer.gasPrice,
    transaction_fee: transfer.fee === null ? null : formatAmount(BigInt(transfer.fee), chain?.nativeCurrency.decimals ?? 18),
    counted: notCountedReason(transfer, order) === null,
    not_counted_reason: notCountedReason(transfer, order),
    created_at: transfer.createdAt.toISOString(),
  };
}
