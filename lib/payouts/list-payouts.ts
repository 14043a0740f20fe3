import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { listMerchantPayouts, listPayoutLegs } from "./queries";
import { serializePayout } from "./serialize";

/** A page of the merchant's batches, newest first, each with its legs. */
export async function listPayouts(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const { rows, count } = await listMerchantPayouts(db, merchantId, window);
  const results = [];
  for (const batch of rows) results.push(serializePayout(batch, await listPayoutLegs(db, batch.id)));
  return { count, results };
}
