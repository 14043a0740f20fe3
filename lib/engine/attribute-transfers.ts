import "server-only";
import { getAddress } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { armSweep, deleteScannedTransfers, hasScannedTransfers, lockScannedTransfers, refreshReceived } from "@/lib/chains/queries";
import type { TransferClaim } from "@/lib/chains/transfer-check";
import type { NewTransaction, PaymentOrder, ScannedTransfer } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import { acceptedMethodsOf, findAcceptedMethod, hasPaymentArrived, isCurrentMethod } from "@/lib/orders/payment-methods";
import { findOrdersByDepositAddresses, findOrdersByMethodAddresses, switchOrderMethod } from "@/lib/orders/queries";
import { matchRefunds, type SeenTransfer } from "@/lib/refunds/match-refunds";
import { findRequestedRefundsTo, markRefundSeen } from "@/lib/refunds/queries";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { screenPayers } from "@/lib/screening/screen-payers";
import { upsertTransfers } from "@/lib/transactions/queries";

const settledStatuses = new Set(["confirmed", "failed", "expired"]);

/** Most scanned transfers one attribution pass takes (in block order); the next pass goes on. */
const transfersPerPass = 5_000;

/** The orders transfers to these addresses pay on a chain: by the order's deposit address, or by an accepted method's (issue 27). */
async function ordersPaidAt(db: DbOrTx, chain: Blockchain, recipients: string[]): Promise<(address: string) => PaymentOrder | undefined> {
  const orders = await findOrdersByDepositAddresses(db, chain.id, recipients);
  const byAddress = new Map(orders.map((o) => [o.receivingAddress, o]));
  // Orders with several methods whose deposit address on this chain is not the chosen method's.
  const byMethodAddress = new Map<string, PaymentOrder>();
  for (const order of await findOrdersByMethodAddresses(
    db,
    chain.id,
    recipients.filter((a) => !byAddress.has(a)),
  )) {
    const address = acceptedMethodsOf(order).find((m) => m.blockchainId === chain.id)?.receivingAddress;
    if (address) byMethodAddress.set(getAddress(address), order);
  }
  return (address) => byAddress.get(address) ?? byMethodAddress.get(address);
}

/**
 * The scanner's filter (`ScanOptions.transfersOfInterest`): of a chunk's transfers, the ones to an
 * order's deposit address (the chosen method's or another accepted one's) and the ones paying a
 * requested refund the merchant sends from their wallet. One indexed query per kind, by recipient.
 */
export async function transfersOfInterest(db: Db, chain: Blockchain, transfers: TransferClaim[]): Promise<TransferClaim[]> {
  if (transfers.length === 0) return [];
  const recipients = [...new Set(transfers.map((t) => t.to))];
  const [orderAt, refunds] = await Promise.all([ordersPaidAt(db, chain, recipients), findRequestedRefundsTo(db, chain.id, recipients)]);
  const refundPayments = new Set(matchRefunds(refunds, transfers).map((pair) => pair.transfer));
  return transfers.filter((t) => orderAt(t.to) !== undefined || refundPayments.has(t));
}

export interface AttributionResult {
  /** Transfers recorded to orders. */
  transfers: number;
  /** Requested refunds seen paid. */
  refunds: number;
  /** Scanned transfers still waiting (more than one pass takes). */
  remaining: boolean;
  /** Transfers whose payer failed screening (lib/screening). */
  flagged?: number;
}

/**
 * The tick's second stage: what the scanner recorded (`scanned_transfers`) becomes what it means,
 * in one transaction per pass that also deletes what it took, so a failure leaves everything for
 * the next pass and a retry never reads the chain again. Per transfer, in block order: money by an
 * accepted method the order has not chosen, while no money has arrived, first makes that method the
 * order's (then it is fixed: lib/orders/queries.ts `switchOrderMethod`); the transfer is recorded to
 * its order (counted when it is the order's asset and arrived by its expiry, `countsToward`), the
 * order's amount received follows, money reaching a settled order arms its sweep; a transfer paying
 * a requested refund marks it pending; every payer is screened (lib/screening/screen-payers.ts).
 */
export async function attributeScannedTransfers(db: Db, chain: Blockchain, now: Date): Promise<AttributionResult> {
  // Most ticks record nothing: one probe instead of a transaction.
  if (!(await hasScannedTransfers(db, chain.id))) return { transfers: 0, refunds: 0, remaining: false };
  const result = await attributeInTransaction(db, chain, now);
  // payment.flagged events were committed with the pass: get them sent now.
  if (result.flagged) await notifyDeliveriesDue();
  return result;
}

async function attributeInTransaction(db: Db, chain: Blockchain, now: Date): Promise<AttributionResult> {
  return db.transaction(async (tx) => {
    const scanned = await lockScannedTransfers(tx, chain.id, transfersPerPass);
    if (scanned.length === 0) return { transfers: 0, refunds: 0, remaining: false };
    const seen: Array<SeenTransfer & { row: ScannedTransfer }> = scanned.map((row) => ({
      row,
      txHash: row.txHash,
      logIndex: row.logIndex,
      blockNumber: row.blockNumber,
      from: row.fromAddress,
      to: row.toAddress,
      tokenAddress: row.tokenAddress,
      amount: BigInt(row.amount),
    }));
    const recipients = [...new Set(scanned.map((r) => r.toAddress))];
    const [orderAt, requested] = await Promise.all([ordersPaidAt(tx, chain, recipients), findRequestedRefundsTo(tx, chain.id, recipients)]);
    const refundPairs = matchRefunds(requested, seen);

    const current = new Map<number, PaymentOrder>();
    const rows: NewTransaction[] = [];
    for (const { row } of seen) {
      const found = orderAt(row.toAddress);
      if (!found) continue;
      let order = current.get(found.id) ?? found;
      if (
        !row.reverted &&
        order.acceptedMethods &&
        !isCurrentMethod(order, { blockchainId: chain.id, tokenAddress: row.tokenAddress }) &&
        !hasPaymentArrived(order)
      ) {
        const method = findAcceptedMethod(order, chain.id, row.toAddress, row.tokenAddress);
        const switched =
          method && countsToward({ ...order, blockchainId: chain.id, tokenAddress: row.tokenAddress }, chain.id, row.tokenAddress, row.blockTimestamp)
            ? await switchOrderMethod(tx, order.id, method, now)
            : null;
        if (switched) order = switched;
      }
      const counted = !row.reverted && countsToward(order, chain.id, row.tokenAddress, row.blockTimestamp);
      // A counted transfer fixes the method for the rest of this batch too (the database learns of it with these rows).
      current.set(order.id, counted ? { ...order, amountReceived: (BigInt(order.amountReceived) + BigInt(row.amount)).toString() } : order);
      rows.push({
        blockchainId: chain.id,
        txHash: row.txHash,
        logIndex: row.logIndex,
        blockNumber: row.blockNumber,
        blockHash: row.blockHash,
        blockTimestamp: row.blockTimestamp,
        fromAddress: row.fromAddress,
        toAddress: row.toAddress,
        tokenAddress: row.tokenAddress,
        currency: currencyOf(chain, row.tokenAddress),
        amount: row.amount,
        gasUsed: row.gasUsed,
        gasPrice: row.gasPrice,
        fee: (row.gasUsed * BigInt(row.gasPrice)).toString(),
        status: row.reverted ? "failed" : "pending",
        paymentOrderId: order.id,
        merchantId: order.merchantId,
        counted,
        createdAt: now,
        updatedAt: now,
      });
    }
    await upsertTransfers(tx, rows);
    // A pending order's amount_received follows its counted transfers at once: the lifecycle finds the orders to judge by it.
    // (A confirmed one's too: a payment a reorg took back and a rescan found again counts again.)
    await refreshReceived(tx, [...new Set(rows.filter((r) => r.counted).map((r) => r.paymentOrderId!))], now, ["pending", "confirmed"]);
    // Every payer is screened (issue 56): a match is flagged, and held when the store's policy says so.
    const flagged = await screenPayers(tx, chain, rows, now);
    for (const { refund, transfer } of refundPairs) {
      const { row } = transfer as (typeof seen)[number];
      await markRefundSeen(tx, refund.id, {
        status: row.reverted ? "failed" : "pending",
        txHash: row.txHash,
        logIndex: row.logIndex,
        blockNumber: row.blockNumber,
        blockHash: row.blockHash,
        updatedAt: now,
      });
    }
    // Money reaching an order that is already settled (late, another asset, more after a sweep) is flushed to the merchant too.
    // (Only money at the order's own deposit address: the sweeper flushes that one.)
    const settledHere = rows.filter((r) => {
      const order = current.get(r.paymentOrderId!)!;
      return r.status !== "failed" && settledStatuses.has(order.status) && order.blockchainId === chain.id && order.receivingAddress === r.toAddress;
    });
    for (const orderId of new Set(settledHere.map((r) => r.paymentOrderId!))) await armSweep(tx, orderId, chain.id, now);
    await deleteScannedTransfers(tx, scanned);
    return { transfers: rows.length, refunds: refundPairs.length, remaining: scanned.length === transfersPerPass, flagged };
  });
}

/** The catalog symbol of a transfer's asset (tokens outside the catalog never reach here: logs are filtered by address). */
function currencyOf(chain: Blockchain, tokenAddress: string | null): string {
  if (!tokenAddress) return chain.nativeCurrency.symbol;
  return chain.tokens.find((t) => t.address === tokenAddress)?.symbol ?? "UNKNOWN";
}

/** A transfer counts toward its order when it is the order's asset on the order's chain and arrived by the order's expiry. */
export function countsToward(
  order: Pick<PaymentOrder, "blockchainId" | "tokenAddress" | "expiresAt" | "status">,
  blockchainId: number,
  tokenAddress: string | null,
  blockTimestamp: Date,
): boolean {
  // (On a sandbox every chain is the one devnet, where a token has the same address on all of them.)
  const sameAsset = order.blockchainId === blockchainId && (order.tokenAddress ?? null)?.toLowerCase() === tokenAddress?.toLowerCase();
  // Once the expiry is announced, money is late whatever its block says: block times are whole
  // seconds (a transfer a moment after the deadline can carry its second) and a block can be seen
  // after the scan that judged the deadline. Counting it would leave it on an expired order for ever.
  if (order.status === "expired") return false;
  return sameAsset && blockTimestamp.getTime() <= order.expiresAt.getTime();
}
