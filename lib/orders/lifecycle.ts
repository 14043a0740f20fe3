import "server-only";
import type { PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { armSweep, findCursorUpdatedAt } from "@/lib/chains/queries";
import { confirmDeepTransfers, findOrderTransfers, setTransferStatus } from "@/lib/transactions/queries";
import { recordTransferPrices } from "@/lib/transactions/record-prices";
import { log } from "@/lib/log";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { paidWithinTolerance } from "@/lib/pricing/convert";
import { findHeldOrderIds } from "@/lib/screening/queries";
import { findOrderScreening, findOrdersToEvaluate, transitionOrder } from "./queries";
import { serializeOrder } from "./serialize";
import { summarizeTransfer } from "./order-transaction";
import { orderMoney } from "./order-money";

export type OrderEventType = "payment.pending" | "payment.confirmed" | "payment.failed" | "payment.expired" | "payment.reorged";

export interface LifecycleResult {
  transitions: { orderId: string; from: string; to: string }[];
}

const confirmationsOf = (head: bigint, transfer: Transaction) => (head >= transfer.blockNumber ? Number(head - transfer.blockNumber + 1n) : 0);

type Decision =
  | { to: "processing" | "confirmed" | "expired" | "pending"; failureReason?: undefined }
  | { to: "failed"; failureReason: "underpaid" | "late_payment" | "reverted" };

const isLive = (t: Transaction) => t.status === "pending" || t.status === "confirmed";
const isOrderAsset = (order: PaymentOrder, t: Transaction) =>
  order.blockchainId === t.blockchainId && (order.tokenAddress ?? null)?.toLowerCase() === t.tokenAddress?.toLowerCase();
/** Money of the order's own asset that arrived after its deadline. */
const isLatePayment = (order: PaymentOrder, t: Transaction) => isLive(t) && !t.counted && isOrderAsset(order, t);

/**
 * The lifecycle rules (DESIGN.md › Order lifecycle, docs/design/payments.md › Lifecycle), as a pure
 * function of an order and its transfers. Only live transfers of the order's asset that arrived by
 * its deadline count. An order settles once: confirmed, failed or expired; the one move out of a
 * settled state is expired → failed (late_payment), when the order's asset arrives after an
 * expiry that was already announced.
 */
export function decide(
  order: PaymentOrder,
  transfers: Transaction[],
  head: bigint,
  now: Date,
  scannedAt: Date | null,
): { decision: Decision | null; received: bigint } {
  const counted = transfers.filter((t) => t.counted && isLive(t));
  const received = counted.reduce((sum, t) => sum + BigInt(t.amount), 0n);
  // Paid: received ≥ amount × (1 − the merchant's tolerance when the order was created).
  const paid = paidWithinTolerance(received, BigInt(order.amount), order.paymentToleranceBps);
  // Expiry is judged only once the scanner has looked at the chain after the deadline.
  const expired = order.expiresAt.getTime() <= now.getTime() && scannedAt !== null && scannedAt.getTime() >= order.expiresAt.getTime();

  switch (order.status) {
    case "pending": {
      if (paid) return { decision: { to: "processing" }, received };
      if (!expired) return { decision: null, received };
      // Settled at the deadline, in one step: a late payment already seen fails the order directly
      // instead of expiring it and failing it again in the same pass.
      if (received > 0n) return { decision: { to: "failed", failureReason: "underpaid" }, received };
      if (transfers.some((t) => isLatePayment(order, t))) return { decision: { to: "failed", failureReason: "late_payment" }, received };
      if (transfers.some((t) => t.status === "failed")) return { decision: { to: "failed", failureReason: "reverted" }, received };
      return { decision: { to: "expired" }, received };
    }
    case "processing": {
      if (!paid) return { decision: { to: "pending" }, received };
      const threshold = order.confirmationThreshold;
      if (counted.every((t) => confirmationsOf(head, t) >= threshold)) return { decision: { to: "confirmed" }, received };
      return { decision: null, received };
    }
    case "expired": {
      // Another asset arriving after expiry is recorded (and swept) but is not a late payment.
      const late = transfers.some((t) => isLatePayment(order, t));
      return { decision: late ? { to: "failed", failureReason: "late_payment" } : null, received };
    }
    default:
      return { decision: null, received };
  }
}

const eventFor: Record<Decision["to"], OrderEventType> = {
  // processing → pending: a reorg took the payment away (its transfers were dropped by the re-check).
  pending: "payment.reorged",
  processing: "payment.pending",
  confirmed: "payment.confirmed",
  failed: "payment.failed",
  expired: "payment.expired",
};

async function applyDecision(
  db: Db,
  chain: Blockchain,
  order: PaymentOrder,
  transfers: Transaction[],
  decision: Decision,
  received: bigint,
  head: bigint,
  now: Date,
) {
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
      await setTransferStatus(
        tx,
        transfers.filter((t) => t.counted && t.status === "pending").map((t) => t.id),
        "confirmed",
        now,
      );
    }
    // Settled with money in the deposit address (paid, underpaid, late, another asset): flush it to the merchant.
    const sweep = settledStates.has(decision.to) && transfers.some(isLive) ? await armSweep(tx, order.id, chain.id, now) : null;
    const latest = transfers.filter((t) => t.counted && isLive(t)).sort((a, b) => Number(b.blockNumber - a.blockNumber) || b.logIndex - a.logIndex)[0];
    // `transfers` leaves out dropped ones: processing → pending is the reorg that took the payment back.
    const money = orderMoney(updated, transfers);
    const data = serializeOrder(
      updated,
      latest ? summarizeTransfer(latest, head, decision.to === "confirmed" ? "confirmed" : undefined) : null,
      sweep,
      [],
      { ...money, reversed: money.reversed || decision.to === "pending" },
      await findOrderScreening(tx, order.id),
    );
    await recordOrderEvent(
      tx,
      { merchantId: order.merchantId, paymentOrderId: order.id, type: eventFor[decision.to], data, webhookUrl: order.webhookUrl },
      now,
    );
    return updated;
  });
}

const settledStates = new Set(["confirmed", "failed", "expired"]);

/**
 * One lifecycle pass over a chain's orders: moves every order whose transfers or deadline call for
 * it, judged against `head`. Each transition is a conditional update plus its outbox event in one
 * transaction, so running this twice, or on two instances at once, changes nothing more. The
 * transfers' blocks must have been re-checked against the chain after `head` was read (the chain
 * tick runs lib/engine/reorg-recheck.ts first); without a `head` this reads one.
 */
export async function advanceOrders(db: Db, chain: Blockchain, client: PublicClient, now = new Date(), head?: bigint): Promise<LifecycleResult> {
  head ??= await client.getBlockNumber({ cacheTime: 0 });
  await confirmDeepTransfers(db, chain.id, head, now);
  // The price of what the scan just recorded, while it is the price at detection (exports value transfers at it).
  await recordTransferPrices(db, chain, client, now).catch((error: unknown) =>
    log.warn("recording transfer prices failed", { chain: chain.slug, error: error instanceof Error ? error.message.slice(0, 200) : String(error) }),
  );
  const scannedAt = await findCursorUpdatedAt(db, chain.id);
  const orders = await findOrdersToEvaluate(db, chain.id, now);
  const transfers = await findOrderTransfers(
    db,
    orders.map((o) => o.id),
  );
  const byOrder = new Map<number, Transaction[]>();
  for (const t of transfers) byOrder.set(t.paymentOrderId!, [...(byOrder.get(t.paymentOrderId!) ?? []), t]);
  // A payment whose payer failed screening under a hold is not confirmed until released (lib/screening).
  const held = await findHeldOrderIds(
    db,
    orders.map((o) => o.id),
  );

  const transitions: LifecycleResult["transitions"] = [];
  for (const order of orders) {
    let current: PaymentOrder | null = order;
    // An order can take more than one step in a pass (e.g. paid and already deep enough: pending → processing → confirmed).
    for (let step = 0; current && step < 3; step++) {
      const own = byOrder.get(current.id) ?? [];
      const found = decide(current, own, head, now, scannedAt);
      const { received } = found;
      const decision = found.decision?.to === "confirmed" && held.has(current.id) ? null : found.decision;
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
  return { transitions };
}
