import "server-only";
import type { PublicClient } from "viem";
import { canonicalHashes, isReorgedOut } from "@/lib/chains/block-check";
import type { Blockchain } from "@/lib/chains/catalog";
import type { Db } from "@/lib/db/types";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { log } from "@/lib/log";
import { serializeOrderView } from "@/lib/orders/order-transaction";
import { findMerchantOrderView } from "@/lib/orders/queries";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { refundConfirmedEvent } from "./create-refund";
import { confirmRefund, findPendingRefunds, reopenRefund } from "./queries";

/**
 * Refunds seen on chain: a transfer whose block was reorged away sends its refund back to
 * `requested` (the scan that ran just before re-recorded whatever the chain holds now); one with
 * the order's confirmation threshold becomes `confirmed` with a `refund.confirmed` event, in one
 * transaction. One RPC call per distinct block of a pending refund; nothing when there is none. A
 * lookup that fails (timeout, RPC error) throws: nothing is reopened on a guess.
 */
export async function advanceRefunds(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  head: bigint,
  now = new Date(),
): Promise<{ confirmed: number; reopened: number }> {
  const pending = await findPendingRefunds(db, chain.id);
  if (pending.length === 0) return { confirmed: 0, reopened: 0 };
  // Only a block the node says is gone or replaced reopens a refund; a failed lookup aborts the pass
  // and leaves every refund as it is (reopening one would invite the merchant to pay it twice).
  const hashes = await canonicalHashes(
    client,
    pending.map((p) => p.refund.blockNumber!),
    head,
  );
  let confirmed = 0;
  let reopened = 0;
  for (const { refund, order } of pending) {
    if (isReorgedOut(hashes, refund.blockNumber!, refund.blockHash!)) {
      log.warn("refund transfer reorged out", { chain: chain.slug, refund: refund.id });
      await reopenRefund(db, refund.id, now);
      reopened++;
      continue;
    }
    const confirmations = head >= refund.blockNumber! ? Number(head - refund.blockNumber! + 1n) : 0;
    if (confirmations < order.confirmationThreshold) continue;
    const done = await db.transaction(async (tx) => {
      if (!(await confirmRefund(tx, refund.id, now))) return false;
      const view = (await findMerchantOrderView(tx, order.merchantId, { id: order.id }))!;
      await recordOrderEvent(
        tx,
        { merchantId: order.merchantId, paymentOrderId: order.id, type: refundConfirmedEvent, data: serializeOrderView(view), webhookUrl: order.webhookUrl },
        now,
      );
      return true;
    });
    if (done) confirmed++;
  }
  if (confirmed) await notifyDeliveriesDue();
  return { confirmed, reopened };
}
