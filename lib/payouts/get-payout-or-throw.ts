import "server-only";
import type { PayoutBatch } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { notFound } from "@/lib/http/errors";
import { findMerchantPayout, listPayoutLegs } from "./queries";
import { serializePayout } from "./serialize";

/** One of the merchant's batches (another merchant's is 404, as a missing one). */
export async function getPayoutOrThrow(db: DbOrTx, merchantId: number, id: number, lock = false): Promise<PayoutBatch> {
  const batch = await findMerchantPayout(db, merchantId, id, lock);
  if (!batch) throw notFound("Payout batch");
  return batch;
}

/** A batch with its legs, as the API shows it. */
export async function showPayout(db: DbOrTx, batch: PayoutBatch) {
  return serializePayout(batch, await listPayoutLegs(db, batch.id));
}
