import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amounts";
import { asScreeningAction } from "@/lib/screening/policy";
import { findLatestListLoad, findScreeningPolicy, listHeldFlags } from "@/lib/screening/queries";

const heldShown = 200;

/** The screening page: the store's policy, the list's date and the payments screening holds. */
export async function loadScreeningOverview(db: DbOrTx, merchantId: number) {
  const [policy, load, held] = await Promise.all([findScreeningPolicy(db, merchantId), findLatestListLoad(db), listHeldFlags(db, merchantId, heldShown)]);
  return {
    policy: asScreeningAction(policy),
    list: load ? { source: load.source, publishedOn: load.publishedOn, loadedAt: load.loadedAt.toISOString(), addresses: load.addresses } : null,
    held: held.map((row) => ({
      id: row.flag.id,
      orderId: row.orderId,
      amount: `${formatAmount(BigInt(row.amount), row.decimals)} ${row.currency}`,
      orderStatus: row.orderStatus,
      payer: row.flag.address,
      matchedBy: row.flag.matchedBy,
      reason: row.flag.reason,
      action: row.flag.action,
      txHash: row.flag.txHash,
      flaggedAt: row.flag.createdAt.toISOString(),
    })),
  };
}
