import "server-only";
import {
  decodeEventLog,
  getAddress,
  isAddressEqual,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { canonicalHashes, isReorgedOut } from "@/lib/chains/block-check";
import { isViemError } from "@/lib/chains/viem-errors";
import type { Blockchain } from "@/lib/chains/catalog";
import type { PayoutBatch, PayoutLeg } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { log } from "@/lib/log";
import { findWalletForChain } from "@/lib/wallets/queries";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { disperserAbi, disperserAddress } from "./disperser";
import { recordPayoutEvent } from "./payout-events";
import { findSentPayouts, listPayoutLegs, markClaimsPaid, releaseClaims, updateBatchLegs, updatePayoutBatch, updatePayoutLeg } from "./queries";

type LegOutcome = { status: "paid" } | { status: "failed"; reason: string };

/**
 * What a mined batch transaction did to each leg, from the disperser's LegPaid / LegFailed events
 * for this batch id: a leg is paid only by a LegPaid of exactly its recipient, token and amount; a
 * LegFailed (the recipient reverted, the token refused) or no event at all fails it. A reverted
 * transaction paid nobody.
 */
export function legOutcomes(
  batch: Pick<PayoutBatch, "id" | "tokenAddress">,
  legs: Pick<PayoutLeg, "position" | "toAddress" | "amount">[],
  receipt: Pick<TransactionReceipt, "status" | "logs">,
  contract: Address,
): Map<number, LegOutcome> {
  const outcomes = new Map<number, LegOutcome>();
  if (receipt.status !== "success") {
    for (const leg of legs) outcomes.set(leg.position, { status: "failed", reason: "The batch transaction reverted: nothing was paid." });
    return outcomes;
  }
  const events = new Map<number, { name: "LegPaid" | "LegFailed"; to: string; token: string; amount: bigint }>();
  for (const entry of receipt.logs) {
    if (!isAddressEqual(entry.address, contract)) continue;
    try {
      const decoded = decodeEventLog({ abi: disperserAbi, data: entry.data, topics: entry.topics as [Hex, ...Hex[]] });
      if (decoded.eventName !== "LegPaid" && decoded.eventName !== "LegFailed") continue;
      const args = decoded.args as { batchId: bigint; leg: bigint; to: string; token: string; amount: bigint };
      if (args.batchId !== BigInt(batch.id)) continue;
      events.set(Number(args.leg), { name: decoded.eventName, to: args.to, token: args.token, amount: args.amount });
    } catch {
      // Not one of the disperser's events.
    }
  }
  const token = (batch.tokenAddress ?? "0x0000000000000000000000000000000000000000") as Address;
  for (const leg of legs) {
    const event = events.get(leg.position);
    const matches =
      event &&
      isAddressEqual(event.to as Address, leg.toAddress as Address) &&
      isAddressEqual(event.token as Address, token) &&
      event.amount === BigInt(leg.amount);
    if (!event || !matches) outcomes.set(leg.position, { status: "failed", reason: "The transaction did not pay this leg (no matching event)." });
    else if (event.name === "LegPaid") outcomes.set(leg.position, { status: "paid" });
    else
      outcomes.set(leg.position, {
        status: "failed",
        reason: batch.tokenAddress
          ? "The token refused the transfer; nothing moved for this leg."
          : "The recipient refused the payment (reverted); its amount went back to the sender.",
      });
  }
  return outcomes;
}

async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (isViemError(error, TransactionReceiptNotFoundError, "TransactionReceiptNotFoundError")) return null;
    throw error;
  }
}

/**
 * Settles the chain's sent batches, like refunds (lib/refunds/advance-refunds.ts): a batch whose
 * block was reorged away goes back to waiting for its receipt, its legs to pending (a failed lookup
 * throws: nothing is reopened on a guess); a mined transaction settles each leg (paid or failed)
 * from the contract's events; after the merchant wallet's confirmation threshold the paid legs
 * are `confirmed` and the batch is `confirmed`, or `failed` when no leg was paid.
 */
export async function settlePayouts(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  now = new Date(),
): Promise<{ mined: number; confirmed: number; reopened: number }> {
  const batches = await findSentPayouts(db, chain.id);
  const contract = disperserAddress(chain);
  const result = { mined: 0, confirmed: 0, reopened: 0 };
  if (batches.length === 0 || !contract) return result;
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const hashes = await canonicalHashes(
    client,
    batches.flatMap((b) => (b.blockNumber === null ? [] : [b.blockNumber])),
    head,
  );
  for (let batch of batches) {
    if (batch.blockNumber !== null && isReorgedOut(hashes, batch.blockNumber, batch.blockHash!)) {
      log.warn("payout transaction reorged out", { chain: chain.slug, payout: batch.id });
      await db.transaction(async (tx) => {
        await updatePayoutBatch(tx, batch.id, { blockNumber: null, blockHash: null, fromAddress: null, updatedAt: now });
        await updateBatchLegs(tx, batch.id, { status: "pending", failureReason: null, updatedAt: now });
      });
      result.reopened++;
      continue;
    }
    if (batch.blockNumber === null) {
      const receipt = await receiptOf(client, batch.txHash as Hex);
      if (!receipt) continue;
      const legs = await listPayoutLegs(db, batch.id);
      const outcomes = legOutcomes(batch, legs, receipt, contract);
      batch = await db.transaction(async (tx) => {
        for (const [position, outcome] of outcomes) {
          await updatePayoutLeg(tx, batch.id, position, {
            status: outcome.status,
            failureReason: outcome.status === "failed" ? outcome.reason : null,
            updatedAt: now,
          });
        }
        return updatePayoutBatch(tx, batch.id, {
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          fromAddress: getAddress(receipt.from),
          updatedAt: now,
        });
      });
      result.mined++;
    }
    const threshold = (await findWalletForChain(db, batch.merchantId, chain.id))?.confirmationThreshold ?? chain.defaultConfirmations;
    const confirmations = head >= batch.blockNumber! ? Number(head - batch.blockNumber! + 1n) : 0;
    if (confirmations < threshold) continue;
    await db.transaction(async (tx) => {
      await updateBatchLegs(tx, batch.id, { status: "confirmed", updatedAt: now }, "paid");
      const legs = await listPayoutLegs(tx, batch.id);
      const anyPaid = legs.some((leg) => leg.status === "confirmed");
      // Claim links: paid by a confirmed leg; a failed leg's claim waits for the next batch.
      await markClaimsPaid(
        tx,
        legs.flatMap((leg) => (leg.claimId && leg.status === "confirmed" ? [leg.claimId] : [])),
        now,
      );
      await releaseClaims(
        tx,
        batch.id,
        now,
        legs.flatMap((leg) => (leg.claimId && leg.status === "failed" ? [leg.claimId] : [])),
      );
      const settled = await updatePayoutBatch(tx, batch.id, { status: anyPaid ? "confirmed" : "failed", confirmedAt: now, updatedAt: now });
      await recordPayoutEvent(tx, anyPaid ? "payout.confirmed" : "payout.failed", settled, legs, now);
    });
    result.confirmed++;
  }
  if (result.confirmed) await notifyDeliveriesDue();
  return result;
}
