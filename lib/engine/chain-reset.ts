import "server-only";
import type { Blockchain } from "@/lib/chains/catalog";
import { deleteCursor, findScannedHead, forgetScannedTransfers, requeueSweepsOnReset } from "@/lib/chains/queries";
import type { Db } from "@/lib/db/types";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { log } from "@/lib/log";
import { dropTransfersOfOpenOrders } from "@/lib/transactions/queries";
import { flagVanishedPayments, recheckWindow } from "./reorg-recheck";

/**
 * The chain under us was replaced (a devnet restarted: new genesis), and what it held vanished
 * with it. In one transaction: every transfer not yet confirmed and every transfer of an order not
 * final is dropped (their orders fall back on the next lifecycle pass, even one whose transfer was
 * confirmed just before a crash), confirmed transfers and succeeded sweeps inside the re-check
 * window are dropped / queued again, transfers scanned but not yet attributed are forgotten, and their confirmed orders flagged at risk with a
 * `payment.reorged` event, and the cursor starts afresh. Confirmed orders stay confirmed.
 */
export async function handleChainReset(db: Db, chain: Blockchain, now: Date): Promise<void> {
  const atRisk = await db.transaction(async (tx) => {
    const lastScanned = (await findScannedHead(tx, chain.id)) ?? 0n;
    const dropped = await dropTransfersOfOpenOrders(tx, chain.id, lastScanned, recheckWindow, now);
    await requeueSweepsOnReset(tx, chain.id, lastScanned, recheckWindow, now);
    const flagged = await flagVanishedPayments(tx, dropped, now);
    await forgetScannedTransfers(tx, chain.id, null);
    await deleteCursor(tx, chain.id);
    return flagged;
  });
  if (atRisk.length) {
    log.warn("confirmed payments vanished with the chain", { chain: chain.slug, orders: atRisk.length });
    await notifyDeliveriesDue();
  }
}
