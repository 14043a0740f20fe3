import "server-only";
import type { PublicClient } from "viem";
import { canonicalHashes, isReorgedOut, type RecheckWindow } from "@/lib/chains/block-check";
import type { Blockchain } from "@/lib/chains/catalog";
import { finalityHead } from "@/lib/chains/finality";
import { findSweepsToRecheck, refreshReceived, requeueReorgedSweeps } from "@/lib/chains/queries";
import type { Db, DbOrTx } from "@/lib/db/types";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { log } from "@/lib/log";
import { serializeOrderView } from "@/lib/orders/order-transaction";
import { findMerchantOrderView, flagOrderAtRisk } from "@/lib/orders/queries";
import { findPendingRefunds } from "@/lib/refunds/queries";
import { dropTransfers, findTransfersToRecheck } from "@/lib/transactions/queries";
import { recordOrderEvent } from "@/lib/webhooks/outbox";

/**
 * Confirmed transfers and succeeded sweeps stay under watch for 2 × their order's threshold, at
 * least 64 blocks (docs/design/chain-engine.md › Reorgs): a reorg that deep takes away
 * something the merchant was told about, and they hear it. Where the chain names a `finalized`
 * block, they also stay under watch until their block is at or below it, however long finality
 * takes (docs/design/chain-engine.md › Confirmations, finality and reorgs).
 */
export const recheckWindow: RecheckWindow = { thresholdMultiple: 2, minBlocks: 64 };

export interface ReorgRecheckResult {
  /** Transfers whose block left the chain (marked dropped: the API shows them failed / reorged). */
  dropped: number;
  /** Confirmed orders newly flagged at risk (their payment vanished), by public id. */
  atRisk: string[];
  /** Succeeded sweeps whose transaction vanished, queued again. */
  sweepsRequeued: number;
}

/**
 * Compares the block of every transfer that can still change an order (not yet confirmed, or of an
 * order not final) and of confirmed transfers and succeeded sweeps inside the window or above the
 * chain's finalized block (one more RPC call, for that block) with what the
 * chain holds at `head`. The scan that runs just before re-recorded whatever the new chain holds (a
 * reorg moves the cursor back, and a re-included transaction is recorded again at its new block),
 * so a record still pointing at a replaced block is gone. A block lookup that fails throws (never a
 * reorg on a guess). `finalizedBlock`: the chain's finalized block when the caller read it already. One RPC call per distinct block; every change of one pass in one transaction.
 */
export async function recheckReorgs(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  head: bigint,
  now: Date,
  finalizedBlock?: bigint,
): Promise<ReorgRecheckResult> {
  const finalized = finalizedBlock !== undefined ? (finalizedBlock < head ? finalizedBlock : head) : await finalityHead(client, chain, "finalized", head);
  const transfers = await findTransfersToRecheck(db, chain.id, head, recheckWindow, finalized);
  const sweeps = await findSweepsToRecheck(db, chain.id, head, recheckWindow, finalized);
  if (transfers.length === 0 && sweeps.length === 0) return { dropped: 0, atRisk: [], sweepsRequeued: 0 };
  const hashes = await canonicalHashes(client, [...transfers.map((t) => t.blockNumber), ...sweeps.map((s) => s.blockNumber!)], head);
  const goneTransfers = transfers.filter((t) => isReorgedOut(hashes, t.blockNumber, t.blockHash));
  const goneSweeps = sweeps.filter((s) => isReorgedOut(hashes, s.blockNumber!, s.blockHash!));
  if (goneTransfers.length === 0 && goneSweeps.length === 0) return { dropped: 0, atRisk: [], sweepsRequeued: 0 };

  const result = await db.transaction(async (tx) => {
    const dropped = await dropTransfers(tx, goneTransfers, now);
    const sweepsRequeued = await requeueReorgedSweeps(tx, goneSweeps, now);
    const atRisk = await flagVanishedPayments(tx, dropped, now);
    return { dropped: dropped.length, atRisk, sweepsRequeued };
  });
  log.warn("reorged out", { chain: chain.slug, transfers: result.dropped, sweeps: result.sweepsRequeued, at_risk: result.atRisk.length });
  if (result.atRisk.length) await notifyDeliveriesDue();
  return result;
}

/**
 * Where the scanner starts again after the cursor's block was replaced, when the fork is deeper than
 * its default rewind (`rewindTo`): the records a re-check would look at (transfers and sweeps under
 * watch, pending refunds) at or below `rewindTo` are compared with the chain (those above it are
 * scanned again anyway); below the lowest one gone, the highest
 * block known to be on both chains is the higher of the highest record still there and the chain's
 * `finalized` block, or else as many blocks below the lowest gone one as the scanner's own rewind.
 * Every block after it is scanned again, so a payment re-included at any height after the fork is
 * recorded at its new block before the re-check runs, instead of being reported reorged. Null when no
 * record is gone (the default rewind stands). One RPC call per distinct block of those records.
 */
export async function findForkPoint(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  rewindTo: bigint,
  head: bigint,
  margin = BigInt(recheckWindow.minBlocks),
): Promise<bigint | null> {
  const finalized = await finalityHead(client, chain, "finalized", head);
  // The window as of `rewindTo`, not the old cursor: a few more records, never fewer.
  const transfers = await findTransfersToRecheck(db, chain.id, rewindTo, recheckWindow, finalized);
  const sweeps = await findSweepsToRecheck(db, chain.id, rewindTo, recheckWindow, finalized);
  const refunds = (await findPendingRefunds(db, chain.id)).map((p) => p.refund);
  const records = [...transfers, ...sweeps, ...refunds]
    .filter((r) => r.blockNumber !== null && r.blockHash !== null && r.blockNumber <= rewindTo)
    .map((r) => ({ blockNumber: r.blockNumber!, blockHash: r.blockHash! }));
  if (records.length === 0) return null;
  const hashes = await canonicalHashes(
    client,
    records.map((r) => r.blockNumber),
    head,
  );
  const gone = records.filter((r) => isReorgedOut(hashes, r.blockNumber, r.blockHash));
  if (gone.length === 0) return null;
  const lowestGone = gone.reduce((low, r) => (r.blockNumber < low ? r.blockNumber : low), gone[0]!.blockNumber);
  let fork = -1n;
  for (const r of records) if (r.blockNumber < lowestGone && hashes.get(r.blockNumber) === r.blockHash && r.blockNumber > fork) fork = r.blockNumber;
  if (finalized >= 0n && finalized < lowestGone && finalized > fork) fork = finalized;
  if (fork < 0n) fork = lowestGone - 1n - margin;
  log.warn("fork below the scanner's rewind", { chain: chain.slug, fork: String(fork < 0n ? 0n : fork), lowest_gone: String(lowestGone) });
  return fork < 0n ? 0n : fork;
}

/**
 * Of the orders of these dropped transfers, every `amount_received` is set to what still counts
 * (issue 50: a confirmed order taken back showed the amount of a transaction it no longer had),
 * and the confirmed ones that lost (part of) their payment (a transfer that counted toward them)
 * each stay confirmed (the documented policy: the merchant was told) but are flagged at risk and
 * announced by a `payment.reorged` event, once, carrying the amount that still counts. Another
 * asset or a late extra vanishing does not put the payment at risk. Orders not final fall back
 * through the lifecycle, which announces processing → pending itself. Call inside the transaction
 * that dropped the transfers.
 */
export async function flagVanishedPayments(tx: DbOrTx, dropped: { paymentOrderId: number | null; counted: boolean }[], now: Date): Promise<string[]> {
  await refreshReceived(tx, [...new Set(dropped.filter((t) => t.counted && t.paymentOrderId !== null).map((t) => t.paymentOrderId!))], now);
  const flagged: string[] = [];
  const orderIds = dropped.filter((t) => t.counted && t.paymentOrderId !== null).map((t) => t.paymentOrderId!);
  for (const id of new Set(orderIds)) {
    const order = await flagOrderAtRisk(tx, id, "payment_reorged", now);
    if (!order) continue;
    const view = (await findMerchantOrderView(tx, order.merchantId, { id: order.id }))!;
    await recordOrderEvent(
      tx,
      { merchantId: order.merchantId, paymentOrderId: order.id, type: "payment.reorged", data: serializeOrderView(view), webhookUrl: order.webhookUrl },
      now,
    );
    flagged.push(order.orderId);
  }
  return flagged;
}
