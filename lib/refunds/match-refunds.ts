import "server-only";
import type { Refund } from "@/lib/db/schema";

/** A transfer the scanner read (ERC-20 log, or a top-level native transfer with log index -1). */
export interface SeenTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  from: string;
  to: string;
  tokenAddress: string | null;
  amount: bigint;
}

const same = (a: string | null, b: string | null) => (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

/**
 * Pairs requested refunds with the transfers that pay them: from the refund's merchant wallet, to
 * its address, in its asset, for exactly its amount (a different amount never matches). Each
 * transfer pays at most one refund and each refund takes the first transfer that fits; refunds
 * are tried oldest first.
 */
export function matchRefunds(refunds: Refund[], transfers: SeenTransfer[]): { refund: Refund; transfer: SeenTransfer }[] {
  const used = new Set<SeenTransfer>();
  const pairs: { refund: Refund; transfer: SeenTransfer }[] = [];
  for (const refund of [...refunds].sort((a, b) => a.id - b.id)) {
    const transfer = transfers.find(
      (t) =>
        !used.has(t) &&
        same(t.to, refund.toAddress) &&
        same(t.from, refund.fromAddress) &&
        same(t.tokenAddress, refund.tokenAddress) &&
        t.amount === BigInt(refund.amount),
    );
    if (!transfer) continue;
    used.add(transfer);
    pairs.push({ refund, transfer });
  }
  return pairs;
}
