import "server-only";
import type { PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import {
  findCursorUpdatedAt,
  findOrdersToEvaluate,
  findOrderTransfers,
  findUnconfirmedTransfers,
  insertOrderEventRow,
  insertSweep,
  setTransferStatus,
  transitionOrder,
  updateTransferBlock,
} from "@/lib/transactions/queries";
import { notifyDeliveriesDue } from "@/lib/jobs/notify";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { serializeOrder } from "./serialize";
import { summarizeTransfer } from "./order-transaction";

export type OrderEventType = "payment.pending" | "payment.confirmed" | "payment.failed" | "payment.expired";

export interface LifecycleResult {
  transitions: { orderId: string; from: string; to: string }[];
  dropped: number;
}

/**
 * Re-checks the block hash of every transfer still waiting for confirmations. A transfer whose
 * block was replaced is looked up again (re-included elsewhere: its block moves) or marked dropped.
 * One RPC call per distinct block with unconfirmed transfers.
 */
async function recheckTransferBlocks(db: Db, chain: Blockchain, client: PublicClient, now: Date): Promise<number> {
  const pending = await findUnconfirmedTransfers(db, chain.id);
  const hashes = new Map<bigint, string | null>();
  for (const blockNumber of new Set(pending.map((t) => t.blockNumber))) {
    const block = await client.getBlock({ blockNumber }).catch(() => null);
    hashes.set(blockNumber, block?.hash ?? null);
  }
  const dropped: number[] = [];
  for (const transfer of pending) {
    if (hashes.get(transfer.blockNumber) === transfer.blockHash) continue;
    const receipt = await client.getTransactionReceipt({ hash: transfer.txHash as `0x${string}` }).catch(() => null);
    if (receipt && receipt.status === "success") {
      await updateTransferBlock(db, transfer.id, { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, updatedAt: now });
    } else {
      dropped.push(transfer.id);
    }
  }
  if (dropped.length) log.warn("transfers reorged out", { chain: chain.slug, count: dropped.length });
  await setTransferStatus(db, dropped, "dropped", now);
  return dropped.length;
}

const confirmationsOf = (head: bigint, transfer: Transaction) => (head >= transfer.blockNumber ? Number(head - transfer.blockNumber + 1n) : 0);

type Decision =
  | { to: "processing" | "confirmed" | "expired" | "pending"; failureReason?: undefined }
  | { to: "failed"; failureReason: "underpaid" | "late_payment" | "reverted" };

/** The lifecycle rules of DESIGN.md › Order lifecycle, as a pure function of an order and its transfers. */
export function decide(order: PaymentOrder, transfers: Transaction[], head: bigint, now: Date, scannedAt: Date | null): { decision: Decision | null; received: bigint } {
  const counted = transfers.filter((t) => t.counted && (t.status === "pending" || t.status === "confirmed"));
  const received = counted.reduce((sum, t) => sum + BigInt(t.amount), 0n);
  const amount = BigInt(order.amount);
  // Expiry is judged only once the scanner has looked at the chain after the deadline.
  const expired = order.expiresAt.getTime() <= now.getTime() && scannedAt !== null && scannedAt.getTime() >= order.expiresAt.getTime();

  switch (order.status) {
    case "pending": {
      if (received >= amount) return { decision: { to: "processing" }, received };
      if (expired) return { decision: received > 0n ? { to: "failed", failureReason: "underpaid" } : { to: "expired" }, received };
      const reverted = transfers.some((t) => t.status === "failed");
      if (received === 0n && reverted) return { decision: { to: "failed", failureReason: "reverted" }, received };
      return { decision: null, received };
    }
    case "processing": {
      if (received < amount) return { decision: { to: "pending" }, received };
      const threshold = order.confirmationThreshold;
      if (counted.every((t) => confirmationsOf(head, t) >= threshold)) return { decision: { to: "confirmed" }, received };
      return { decision: null, received };
    }
    case "expired": {
      const late = transfers.some((t) => !t.counted && t.status === "pending");
      return { decision: late ? { to: "failed", failureReason: "late_payment" } : null, received };
    }
    default:
      return { decision: null, received };
  }
}

const eventFor: Partial<Record<string, OrderEventType>> = {
  processing: "payment.pending",
  confirmed: "payment.confirmed",
  failed: "payment.failed",
  expired: "payment.expired",
};

async function applyDecision(db: Db, chain: Blockchain, order: PaymentOrder, transfers: Transaction[], decision: Decision, received: bigint, head: bigint, now: Date) {
  return db.transaction(async (tx) => {
    const updated = await transitionOrder(tx, order.id, order.status, {
      status: decision.to,
      failureReason: decision.to === "failed" ? decision.failureReason : null,
      amountReceived: received.toString(),
      confirmedAt: decision.to === "confirmed" ? now : order.confirmedAt,
      updatedAt: now,
    });
    if (!updated) return null; // someone else already moved it
    if (decision.to === "confirmed") {
      await setTransferStatus(tx, transfers.filter((t) => t.counted && t.status === "pending").map((t) => t.id), "confirmed", now);
      await insertSweep(tx, order.id, chain.id, now);
    }
    const latest = [...transfers].sort((a, b) => Number(b.counted) - Number(a.counted) || Number(b.blockNumber - a.blockNumber))[0];
    const data = serializeOrder(updated, latest ? summarizeTransfer(latest, head, decision.to === "confirmed" ? "confirmed" : undefined) : null);
    const type = eventFor[decision.to];
    if (type) {
      await recordOrderEvent(tx, { merchantId: order.merchantId, paymentOrderId: order.id, type, data, webhookUrl: order.webhookUrl }, now);
    } else {
      // processing → pending after a reorg: kept in the order's history, not a webhook event.
      await recordReorgEvent(tx, order, data, now);
    }
    return updated;
  });
}

async function recordReorgEvent(tx: DbOrTx, order: PaymentOrder, data: unknown, now: Date) {
  await insertOrderEventRow(tx, { id: newId("event"), merchantId: order.merchantId, paymentOrderId: order.id, type: "payment.reorged", data, createdAt: now });
}

/**
 * One lifecycle pass over a chain's orders: re-checks unconfirmed transfers' blocks, then moves
 * every order whose transfers or deadline call for it. Each transition is a conditional update
 * plus its outbox event in one transaction, so running this twice, or on two instances at once,
 * changes nothing more.
 */
export async function advanceOrders(db: Db, chain: Blockchain, client: PublicClient, now = new Date()): Promise<LifecycleResult> {
  const dropped = await recheckTransferBlocks(db, chain, client, now);
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const scannedAt = await findCursorUpdatedAt(db, chain.id);
  const orders = await findOrdersToEvaluate(db, chain.id, now);
  const transfers = await findOrderTransfers(db, orders.map((o) => o.id));
  const byOrder = new Map<number, Transaction[]>();
  for (const t of transfers) byOrder.set(t.paymentOrderId!, [...(byOrder.get(t.paymentOrderId!) ?? []), t]);

  const transitions: LifecycleResult["transitions"] = [];
  for (const order of orders) {
    let current: PaymentOrder | null = order;
    // An order can take more than one step in a pass (e.g. paid and already deep enough: pending → processing → confirmed).
    for (let step = 0; current && step < 3; step++) {
      const own = byOrder.get(current.id) ?? [];
      const { decision, received } = decide(current, own, head, now, scannedAt);
      if (!decision) {
        // Partial payments show in amount_received before any transition.
        if (received.toString() !== current.amountReceived) {
          await transitionOrder(db, current.id, current.status, { amountReceived: received.toString(), updatedAt: now });
        }
        break;
      }
      const next: PaymentOrder | null = await applyDecision(db, chain, current, own, decision, received, head, now);
      if (!next) break;
      transitions.push({ orderId: current.orderId, from: current.status, to: next.status });
      current = next;
    }
  }
  // Webhook deliveries were committed with the transitions: get them sent now, not at the next poll.
  if (transitions.length) await notifyDeliveriesDue();
  return { transitions, dropped };
}
