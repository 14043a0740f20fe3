import "server-only";
import { eq, isNotNull } from "drizzle-orm";
import { parseEventLogs, erc20Abi, type TransactionReceipt } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { transactions, type Subscription, type SubscriptionCharge } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** A charge's status → its transfer's (lib/transactions): a charge reorged away is a transfer dropped, like a payment's. */
const transferStatus = (status: SubscriptionCharge["status"]) =>
  status === "confirmed" ? "confirmed" : status === "pending" ? "pending" : status === "reorged" ? "dropped" : "failed";

/**
 * Books a mined charge where money is booked (issue 53): a row of `transactions` for the token's
 * Transfer from the customer's wallet to the merchant's, with the merchant, the charge, its block,
 * gas and status; unpriced, so the chain's next lifecycle pass records its price like a payment's
 * (lib/transactions/record-prices.ts). Recorded once per charge; a charge mined without a receipt
 * on record (found by neither its send nor the contract's event) books nothing.
 * The same transaction mined again after a reorg (a new charge of the period) takes over the row the old charge left.
 */
export async function bookChargeTransfer(
  db: DbOrTx,
  chain: Blockchain,
  subscription: Subscription,
  charge: SubscriptionCharge,
  mined: { receipt: TransactionReceipt; blockTimestamp: Date },
  status: SubscriptionCharge["status"],
  now: Date,
): Promise<void> {
  const { receipt } = mined;
  const token = chain.tokens.find((t) => t.address?.toLowerCase() === subscription.tokenAddress.toLowerCase());
  const transfer = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).find(
    (log) =>
      log.address.toLowerCase() === subscription.tokenAddress.toLowerCase() &&
      log.args.from.toLowerCase() === subscription.subscriberAddress.toLowerCase() &&
      log.args.to.toLowerCase() === subscription.merchantAddress.toLowerCase(),
  );
  await db
    .insert(transactions)
    .values({
      blockchainId: chain.id,
      txHash: receipt.transactionHash.toLowerCase(),
      logIndex: transfer?.logIndex ?? 0,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      blockTimestamp: mined.blockTimestamp,
      fromAddress: subscription.subscriberAddress.toLowerCase(),
      toAddress: subscription.merchantAddress.toLowerCase(),
      // As the catalog spells it, as the scanner records a payment's token.
      tokenAddress: token?.address ?? subscription.tokenAddress,
      currency: token?.symbol ?? "?",
      amount: (transfer?.args.value ?? BigInt(charge.amount)).toString(),
      gasUsed: receipt.gasUsed,
      gasPrice: receipt.effectiveGasPrice.toString(),
      fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
      status: transferStatus(status),
      paymentOrderId: null,
      subscriptionChargeId: charge.id,
      merchantId: subscription.merchantId,
      counted: true,
      createdAt: now,
      updatedAt: now,
    })
    // The same transaction mined again after a reorg took it away: the new charge of the period takes over its row.
    .onConflictDoUpdate({
      target: [transactions.blockchainId, transactions.txHash, transactions.logIndex, transactions.toAddress],
      set: {
        subscriptionChargeId: charge.id,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        blockTimestamp: mined.blockTimestamp,
        status: transferStatus(status),
        updatedAt: now,
      },
      setWhere: isNotNull(transactions.subscriptionChargeId),
    });
}

/** Carries a charge's block and status to its booked transfer (confirmations counted, re-included elsewhere, reorged away). */
export async function syncChargeTransfer(
  db: DbOrTx,
  chargeId: number,
  values: { status: SubscriptionCharge["status"]; blockNumber?: bigint; blockHash?: string },
  now: Date,
): Promise<void> {
  await db
    .update(transactions)
    .set({
      status: transferStatus(values.status),
      ...(values.blockNumber !== undefined ? { blockNumber: values.blockNumber } : {}),
      ...(values.blockHash !== undefined ? { blockHash: values.blockHash } : {}),
      updatedAt: now,
    })
    .where(eq(transactions.subscriptionChargeId, chargeId));
}
