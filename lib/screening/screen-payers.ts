import "server-only";
import type { Blockchain } from "@/lib/chains/catalog";
import type { NewTransaction } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { serializeOrderView } from "@/lib/orders/order-transaction";
import { findMerchantOrderView } from "@/lib/orders/queries";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { asScreeningAction } from "./policy";
import { findListedAddresses, findScreeningPolicies, insertScreeningFlags } from "./queries";
import { listedVerdict, screenAddress, type ScreeningProvider, type ScreeningVerdict } from "./screen-address";

export const paymentFlaggedEvent = "payment.flagged";

/**
 * Screens the payers of transfers just recorded to orders (attribution, in its transaction): every
 * sender of a live transfer is checked against the sanctions list and the provider, once per
 * sender. A match flags the transfer with the store's policy (record, hold, refund) and records
 * one payment.flagged event per order; a transfer already flagged (a rescan) is not flagged again.
 * Returns the new flags.
 */
export async function screenPayers(tx: DbOrTx, chain: Blockchain, rows: NewTransaction[], now: Date, provider?: ScreeningProvider | null): Promise<number> {
  const live = rows.filter((r) => r.status !== "failed" && r.paymentOrderId != null);
  if (live.length === 0) return 0;
  // The list in one lookup for every sender; the provider (if any) for the senders it does not hold.
  const senders = [...new Set(live.map((r) => r.fromAddress.toLowerCase()))];
  const verdicts = new Map<string, ScreeningVerdict>((await findListedAddresses(tx, senders)).map((entry) => [entry.address, listedVerdict(entry)] as const));
  for (const sender of senders.filter((s) => !verdicts.has(s))) {
    verdicts.set(sender, await screenAddress(tx, sender, { chainId: chain.chainId, provider }));
  }
  const matched = live.filter((r) => verdicts.get(r.fromAddress.toLowerCase())!.listed);
  if (matched.length === 0) return 0;
  const policies = await findScreeningPolicies(tx, [...new Set(matched.map((r) => r.merchantId!))]);
  const flags = await insertScreeningFlags(
    tx,
    matched.map((r) => {
      const verdict = verdicts.get(r.fromAddress.toLowerCase()) as Extract<ScreeningVerdict, { listed: true }>;
      const action = asScreeningAction(policies.get(r.merchantId!));
      return {
        merchantId: r.merchantId!,
        paymentOrderId: r.paymentOrderId!,
        blockchainId: chain.id,
        txHash: r.txHash,
        logIndex: r.logIndex,
        address: r.fromAddress,
        matchedBy: verdict.matchedBy,
        reason: verdict.reason,
        action,
        status: action === "record" ? "recorded" : "held",
        createdAt: now,
        updatedAt: now,
      };
    }),
  );
  for (const orderId of new Set(flags.map((f) => f.paymentOrderId))) {
    const flag = flags.find((f) => f.paymentOrderId === orderId)!;
    const view = await findMerchantOrderView(tx, flag.merchantId, { id: orderId });
    if (!view) continue;
    await recordOrderEvent(
      tx,
      { merchantId: flag.merchantId, paymentOrderId: orderId, type: paymentFlaggedEvent, data: serializeOrderView(view), webhookUrl: view.order.webhookUrl },
      now,
    );
  }
  return flags.length;
}
