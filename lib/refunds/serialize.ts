import { encodeFunctionData, erc20Abi, type Address } from "viem";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { Refund } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amounts";

/** What a refund needs from its order to be shown. */
export interface RefundOrderContext {
  orderId: string;
  decimals: number;
  blockchainId: number;
}

/**
 * The transaction that pays a refund, for the merchant's wallet to sign: an ERC-20
 * `transfer(to, amount)` on the token, or a plain native transfer of `amount` wei to the address.
 */
export function refundTransaction(refund: Pick<Refund, "fromAddress" | "toAddress" | "tokenAddress" | "amount" | "blockchainId">) {
  const amount = BigInt(refund.amount);
  const chainId = findBlockchainById(refund.blockchainId)?.chainId ?? 0;
  if (refund.tokenAddress) {
    return {
      from: refund.fromAddress,
      to: refund.tokenAddress,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [refund.toAddress as Address, amount] }),
      value: "0",
      chainId,
    };
  }
  return { from: refund.fromAddress, to: refund.toAddress, data: "0x", value: amount.toString(), chainId };
}

/** A refund as the refunds endpoints and the order's `refunds` show it. */
export function serializeRefund(refund: Refund, order: RefundOrderContext) {
  return {
    id: refund.id,
    order_id: order.orderId,
    amount: formatAmount(BigInt(refund.amount), order.decimals),
    amount_base_units: BigInt(refund.amount).toString(),
    currency: refund.currency,
    from_address: refund.fromAddress,
    to_address: refund.toAddress,
    reason: refund.reason,
    status: refund.status as "requested" | "pending" | "confirmed" | "failed",
    transaction_hash: refund.txHash,
    block_number: refund.blockNumber === null ? null : Number(refund.blockNumber),
    created_at: refund.createdAt.toISOString(),
    updated_at: refund.updatedAt.toISOString(),
    confirmed_at: refund.confirmedAt ? refund.confirmedAt.toISOString() : null,
    transaction: refundTransaction(refund),
  };
}
