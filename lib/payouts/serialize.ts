import { findBlockchainById } from "@/lib/chains/catalog";
import type { PayoutBatch, PayoutLeg } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amounts";
import { allowanceCallData, batchCallData, disperserAddress } from "./disperser";
import type { PayoutStatus } from "./schemas";

/** Whether the batch may be signed now: a draft that needs no approval, or an approved one. */
export function isSignable(batch: Pick<PayoutBatch, "status" | "approvalRequired">): boolean {
  return batch.status === "approved" || (batch.status === "draft" && !batch.approvalRequired);
}

/**
 * The transactions that pay a batch, for the merchant's wallet: the token allowance (token batches)
 * and the batch call; for a token whose approve refuses to go from one non-zero allowance to another
 * (USDT: `approveFromZero` in the catalog), also approve(contract, 0) to sign first when an allowance
 * left from an earlier batch stands.
 */
export function payoutTransactions(batch: PayoutBatch, legs: PayoutLeg[]) {
  const chain = findBlockchainById(batch.blockchainId);
  const contract = chain ? disperserAddress(chain) : null;
  if (!chain || !contract || !isSignable(batch)) return { contract, allowanceReset: null, allowance: null, transaction: null };
  const token = batch.tokenAddress ? chain.tokens.find((t) => t.address?.toLowerCase() === batch.tokenAddress!.toLowerCase()) : undefined;
  const call = batchCallData({
    id: batch.id,
    tokenAddress: batch.tokenAddress,
    legs: legs.map((leg) => ({ toAddress: leg.toAddress, amount: BigInt(leg.amount) })),
  });
  return {
    contract,
    allowanceReset:
      batch.tokenAddress && token?.approveFromZero
        ? { to: batch.tokenAddress, data: allowanceCallData(contract, 0n), value: "0", chainId: chain.chainId }
        : null,
    allowance: batch.tokenAddress
      ? { to: batch.tokenAddress, data: allowanceCallData(contract, BigInt(batch.totalAmount)), value: "0", chainId: chain.chainId }
      : null,
    transaction: { to: contract, data: call.data, value: call.value.toString(), chainId: chain.chainId },
  };
}

export function serializePayoutLeg(leg: PayoutLeg, decimals: number) {
  return {
    position: leg.position,
    address: leg.toAddress,
    amount: formatAmount(BigInt(leg.amount), decimals),
    amount_base_units: BigInt(leg.amount).toString(),
    fiat_amount: leg.fiatAmount,
    reference: leg.reference,
    status: leg.status as "pending" | "paid" | "confirmed" | "failed",
    failure_reason: leg.failureReason,
  };
}

/** A batch as every payouts endpoint, the webhooks and the dashboard show it. */
export function serializePayout(batch: PayoutBatch, legs: PayoutLeg[]) {
  const chain = findBlockchainById(batch.blockchainId);
  const { contract, allowanceReset, allowance, transaction } = payoutTransactions(batch, legs);
  return {
    id: batch.id,
    blockchain: chain?.slug ?? String(batch.blockchainId),
    currency: batch.currency,
    token_address: batch.tokenAddress,
    status: batch.status as PayoutStatus,
    total: formatAmount(BigInt(batch.totalAmount), batch.decimals),
    total_base_units: BigInt(batch.totalAmount).toString(),
    leg_count: batch.legCount,
    amount_currency: batch.amountCurrency,
    rate: batch.rate,
    usd_value: batch.usdValue,
    rate_locked_at: batch.rateLockedAt?.toISOString() ?? null,
    note: batch.note,
    approval_required: batch.approvalRequired,
    created_by: batch.createdBy,
    approved_by: batch.approvedBy,
    approved_at: batch.approvedAt?.toISOString() ?? null,
    transaction_hash: batch.txHash,
    from_address: batch.fromAddress,
    block_number: batch.blockNumber === null ? null : Number(batch.blockNumber),
    sent_at: batch.sentAt?.toISOString() ?? null,
    confirmed_at: batch.confirmedAt?.toISOString() ?? null,
    created_at: batch.createdAt.toISOString(),
    updated_at: batch.updatedAt.toISOString(),
    contract_address: contract,
    allowance_reset_transaction: allowanceReset,
    allowance_transaction: allowance,
    transaction,
    legs: legs.map((leg) => serializePayoutLeg(leg, batch.decimals)),
  };
}
