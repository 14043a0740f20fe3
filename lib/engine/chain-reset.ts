import "server-only";
import type { Db } from "@/lib/db/types";
import { dropTransfersOfOpenOrders } from "@/lib/transactions/queries";
import type { Blockchain } from "@/lib/chains/catalog";
import { deleteCursor } from "@/lib/chains/queries";

/**
 * The chain under us was replaced (a devnet restarted: new genesis). Transfers not yet confirmed
 * vanished with it: mark them dropped so their orders fall back on the next lifecycle pass, and
 * start the cursor afresh. Confirmed orders stay confirmed: the merchant was already told.
 */
export async function handleChainReset(db: Db, chain: Blockchain, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await dropTransfersOfOpenOrders(tx, chain.id, now);
    await deleteCursor(tx, chain.id);
  });
}
