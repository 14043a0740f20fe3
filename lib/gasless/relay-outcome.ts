import "server-only";
import type { Hex, TransactionReceipt } from "viem";
import type { DbOrTx } from "@/lib/db/types";
import { observeGaslessRelay } from "@/lib/metrics/record";
import { updateRelay } from "./queries";

/**
 * Records a relayed transaction's outcome on its budget row (gas used and cost, which the budgets count from now on)
 * and in the metrics; whether it succeeded. `call` names what reverted, for the row's last error.
 */
export async function recordRelayOutcome(
  db: DbOrTx,
  chainSlug: string,
  relayId: number,
  hash: Hex,
  receipt: TransactionReceipt,
  call: string,
): Promise<boolean> {
  const costWei = receipt.gasUsed * receipt.effectiveGasPrice;
  const mined = receipt.status === "success";
  await updateRelay(db, relayId, {
    status: mined ? "mined" : "reverted",
    txHash: hash,
    gasUsed: receipt.gasUsed,
    effectiveGasPrice: receipt.effectiveGasPrice.toString(),
    costWei: costWei.toString(),
    lastError: mined ? null : `${call} reverted`,
  });
  observeGaslessRelay(chainSlug, mined ? "mined" : "reverted", { gasUsed: receipt.gasUsed, costWei });
  return mined;
}
