import { findBlockchainById, findToken } from "@/lib/chains/catalog";
import type { OrderEvent, PaymentOrder, Sweep, Transaction } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amounts";

/** A refund as the order's `refunds` (and each event's snapshot of it) show it. */
interface RefundSnapshot {
  id: number;
  amount: string;
  currency: string;
  to_address: string;
  status: string;
  transaction_hash: string | null;
}

export type TimelineEntry =
  | { kind: "created"; key: string; at: Date }
  | { kind: "transfer"; key: string; at: Date; amount: string; currency: string; from: string; txHash: string; status: string; counted: boolean }
  | { kind: "event"; key: string; at: Date; event: OrderEvent; refund: RefundSnapshot | null }
  | { kind: "sweep"; key: string; at: Date; txHash: string | null; to: string };

function snapshotRefunds(event: OrderEvent): RefundSnapshot[] {
  const refunds = (event.data as { refunds?: unknown }).refunds;
  return Array.isArray(refunds) ? (refunds as RefundSnapshot[]) : [];
}

/** The refund a refund event is about: the one that appeared (refund.created) or changed status (refund.confirmed) since the previous snapshot. */
function refundOf(event: OrderEvent, previous: RefundSnapshot[]): RefundSnapshot | null {
  if (!event.type.startsWith("refund.")) return null;
  const before = new Map(previous.map((r) => [r.id, r.status]));
  const now = snapshotRefunds(event);
  return now.find((r) => before.get(r.id) !== r.status) ?? null;
}

function transferAmount(order: PaymentOrder, t: Transaction): string {
  const chain = findBlockchainById(t.blockchainId);
  const decimals = (chain && findToken(chain, t.currency)?.decimals) ?? order.decimals;
  return formatAmount(BigInt(t.amount), decimals);
}

/**
 * An order's history in causal order: created; each transfer to its deposit address, when the
 * gateway recorded it; its events in their sequence (the order the transitions happened, whatever
 * their timestamps say); the sweep of its deposit. The sources are merged by time; at the same
 * instant a transfer comes before the event it caused and the sweep after both, and events never
 * change places among themselves (same-second events stay in sequence).
 */
export function buildOrderTimeline(order: PaymentOrder, events: OrderEvent[], transfers: Transaction[], sweep: Sweep | null): TimelineEntry[] {
  const inSequence = [...events].sort((a, b) => a.sequence - b.sequence);
  let previous: RefundSnapshot[] = [];
  const eventEntries: TimelineEntry[] = inSequence.map((event) => {
    const entry: TimelineEntry = { kind: "event", key: event.id, at: event.createdAt, event, refund: refundOf(event, previous) };
    previous = snapshotRefunds(event);
    return entry;
  });
  const transferEntries: TimelineEntry[] = [...transfers]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
    .map((t) => ({
      kind: "transfer",
      key: `t${t.id}`,
      at: t.createdAt,
      amount: transferAmount(order, t),
      currency: t.currency,
      from: t.fromAddress,
      txHash: t.txHash,
      status: t.status,
      counted: t.counted,
    }));
  const sweepEntries: TimelineEntry[] =
    sweep?.status === "succeeded" ? [{ kind: "sweep", key: `s${sweep.id}`, at: sweep.updatedAt, txHash: sweep.txHash, to: order.depositDestination }] : [];

  const rank: Record<TimelineEntry["kind"], number> = { created: 0, transfer: 1, event: 2, sweep: 3 };
  const queues = [transferEntries, eventEntries, sweepEntries];
  const merged: TimelineEntry[] = [{ kind: "created", key: "created", at: order.createdAt }];
  for (;;) {
    let next: TimelineEntry[] | null = null;
    for (const queue of queues) {
      const head = queue[0];
      if (!head) continue;
      const best = next?.[0];
      if (!best || head.at.getTime() - best.at.getTime() < 0 || (head.at.getTime() === best.at.getTime() && rank[head.kind] < rank[best.kind])) next = queue;
    }
    if (!next) return merged;
    const entry = next.shift()!;
    // An event names the transfer it is about: that transfer is shown first, even if its clock read later.
    const cause =
      entry.kind === "event" ? (entry.event.data as { transaction?: { transaction_hash?: string } | null }).transaction?.transaction_hash : undefined;
    if (cause) {
      for (
        let index = transferEntries.findIndex((t) => t.kind === "transfer" && t.txHash === cause);
        index >= 0;
        index = transferEntries.findIndex((t) => t.kind === "transfer" && t.txHash === cause)
      ) {
        merged.push(...transferEntries.splice(index, 1));
      }
    }
    merged.push(entry);
  }
}
